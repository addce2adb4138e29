package dev.tidemark.sql;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamAggregationRel;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.RelNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.RelWriter;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlExplainLevel;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * The window that Beam SQL's planner found in a {@code GROUP BY}: which group column holds it, and
 * its kind and size. Beam keeps them private in {@link BeamAggregationRel}, and shows them only in
 * the terms it explains itself with ({@code window=[FixedWindows($0, PT1S, PT0S)]}), so they are
 * read from there; a test holds the reading to Beam's wording.
 *
 * @param kind the simple name of Beam's {@code WindowFn}: {@code FixedWindows} for {@code TUMBLE},
 *     {@code SlidingWindows} for {@code HOP}, {@code Sessions} for {@code SESSION}
 * @param groupColumn the column of the aggregate's input that the window is grouped by
 * @param size the window's size; zero for {@code Sessions}
 * @param period how often a window starts: the size for {@code FixedWindows}, the slide for {@code
 *     SlidingWindows}; zero for {@code Sessions}
 * @param offset how far the windows are shifted from the epoch
 */
record AggregateWindow(
    String kind, int groupColumn, Duration size, Duration period, Duration offset) {

  private static final Pattern FIXED =
      Pattern.compile("FixedWindows\\(\\$(\\d+), (PT[^,]+), (PT[^)]+)\\)");

  /** Beam's {@code SlidingWindows}: the group column, the period, the size and the offset. */
  private static final Pattern SLIDING =
      Pattern.compile("SlidingWindows\\(\\$(\\d+), (PT[^,]+), (PT[^,]+), (PT[^)]+)\\)");

  private static final Pattern OTHER = Pattern.compile("(\\w+)\\(\\$(\\d+).*");

  /** The window {@code aggregate} groups by, or null when it groups by none. */
  static @Nullable AggregateWindow of(BeamAggregationRel aggregate) {
    WindowTerm term = new WindowTerm();
    aggregate.explainTerms(term);
    if (term.window == null) {
      return null;
    }
    Matcher fixed = FIXED.matcher(term.window);
    if (fixed.matches()) {
      return new AggregateWindow(
          "FixedWindows",
          Integer.parseInt(fixed.group(1)),
          Duration.parse(fixed.group(2)),
          Duration.parse(fixed.group(2)),
          Duration.parse(fixed.group(3)));
    }
    Matcher sliding = SLIDING.matcher(term.window);
    if (sliding.matches()) {
      return new AggregateWindow(
          "SlidingWindows",
          Integer.parseInt(sliding.group(1)),
          Duration.parse(sliding.group(3)),
          Duration.parse(sliding.group(2)),
          Duration.parse(sliding.group(4)));
    }
    Matcher other = OTHER.matcher(term.window);
    if (other.matches()) {
      return new AggregateWindow(
          other.group(1),
          Integer.parseInt(other.group(2)),
          Duration.ZERO,
          Duration.ZERO,
          Duration.ZERO);
    }
    throw new IllegalStateException("Beam SQL explains its window as " + term.window);
  }

  /** Keeps the {@code window} term of what a relational node explains about itself. */
  private static final class WindowTerm implements RelWriter {
    @Nullable String window;

    @Override
    public void explain(RelNode rel, List<Pair<String, @Nullable Object>> values) {}

    @Override
    public SqlExplainLevel getDetailLevel() {
      return SqlExplainLevel.EXPPLAN_ATTRIBUTES;
    }

    @Override
    public RelWriter item(String term, @Nullable Object value) {
      if (term.equals("window")) {
        window = String.valueOf(value);
      }
      return this;
    }

    @Override
    public RelWriter done(RelNode node) {
      return this;
    }
  }
}
