package dev.tidemark.sql;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.List;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamCalcRel;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.plan.RelOptUtil;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.RelNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexInputRef;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexLocalRef;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexProgram;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.util.ImmutableBitSet;
import org.joda.time.Duration;

/**
 * The windows of a query, as {@link WindowedQueryPlanner} reads them from Beam SQL's plan: a {@code
 * GROUP BY} window's kind and sizes ({@link AggregateWindow}), or a window table function's ({@link
 * WindowTableFunction}), and what a query may do with a {@code HOP} table function's window
 * columns.
 */
final class QueryWindows {

  private QueryWindows() {}

  /**
   * Refuses a query that uses the {@code window_start} or {@code window_end} of a table function
   * whose windows do not tumble below the grouping other than by passing it on: a row is in several
   * {@code HOP} or {@code CUMULATE} windows, and its session is known only when it is grouped, so
   * no one value of them belongs to it.
   */
  static void onlyGroupedBy(List<RelNode> chain, WindowTableFunction function)
      throws InvalidQueryException {
    ImmutableBitSet windowColumns =
        ImmutableBitSet.of(function.inputWidth(), function.inputWidth() + 1);
    boolean after = false;
    for (RelNode step : chain) {
      if (!(step instanceof BeamCalcRel calc)) {
        after = true;
        continue;
      }
      if (!after) {
        continue;
      }
      RexProgram program = calc.getProgram();
      if (program.getCondition() != null
          && RelOptUtil.InputFinder.bits(program.expandLocalRef(program.getCondition()))
              .intersects(windowColumns)) {
        throw WindowedQueryPlanner.refused(
            "a condition on "
                + function.name()
                + "'s window_start or window_end is not supported: "
                + whyNoOneWindow(function)
                + ", and the planner moves such a condition before the grouping, from WHERE or"
                + " HAVING");
      }
      ImmutableBitSet.Builder passedOn = ImmutableBitSet.builder();
      List<RexLocalRef> projects = program.getProjectList();
      for (int column = 0; column < projects.size(); column++) {
        RexNode projected = program.expandLocalRef(projects.get(column));
        if (projected instanceof RexInputRef ref && windowColumns.get(ref.getIndex())) {
          passedOn.set(column);
        } else if (RelOptUtil.InputFinder.bits(projected).intersects(windowColumns)) {
          throw WindowedQueryPlanner.refused(
              "an expression of "
                  + function.name()
                  + "'s window_start or window_end below the GROUP BY is not supported: "
                  + whyNoOneWindow(function)
                  + "; compute it after the GROUP BY");
        }
      }
      windowColumns = passedOn.build();
    }
  }

  private static String whyNoOneWindow(WindowTableFunction function) {
    return function.windows().kind().merges()
        ? "a row's session is known only once rows are grouped"
        : "a row is in several " + function.name() + " windows";
  }

  /** The windows a {@code GROUP BY} window stands for, or its refusal. */
  static EventTimeWindowing of(AggregateWindow window) throws InvalidQueryException {
    if (!window.offset().equals(Duration.ZERO)) {
      throw WindowedQueryPlanner.refused("a window with an offset is not supported");
    }
    switch (window.kind()) {
      case "FixedWindows":
        return EventTimeWindowing.fixed(window.size());
      case "SlidingWindows":
        return sliding(window.size(), window.period());
      default:
        throw WindowedQueryPlanner.refused(window.kind() + " windows are not supported");
    }
  }

  /**
   * {@code CUMULATE}'s windows, or its refusal when the size is not a whole number of steps, as
   * Flink SQL refuses it.
   */
  static EventTimeWindowing cumulating(Duration step, Duration size) throws InvalidQueryException {
    if (size.getMillis() % step.getMillis() != 0) {
      throw WindowedQueryPlanner.refused(
          "CUMULATE's size (" + size + ") must be a whole number of its steps (" + step + ")");
    }
    return EventTimeWindowing.cumulating(step, size);
  }

  /** {@code HOP}'s windows, or its refusal when the slide is longer than the size. */
  static EventTimeWindowing sliding(Duration size, Duration slide) throws InvalidQueryException {
    if (slide.isLongerThan(size)) {
      throw WindowedQueryPlanner.refused(
          "HOP with a slide ("
              + slide
              + ") longer than its size ("
              + size
              + ") is not supported: rows between two windows would be in none");
    }
    return EventTimeWindowing.sliding(size, slide);
  }
}
