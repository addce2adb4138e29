package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Which window and which pane a result belongs to: the window's bounds, the pane's timing ({@code
 * EARLY}, {@code ON_TIME}, {@code LATE}), its index, and whether it is the window's final pane.
 *
 * <p>A session window that merged into a larger one after a pane of it came out gets one last pane
 * that withdraws it: {@link #mergedInto} names the session it became part of, and it is final, as
 * nothing comes for the withdrawn window again. A consumer that keeps the latest pane per (key,
 * window) deletes the window on it; such a pane is no result ({@link #isWithdrawn}).
 */
@DefaultCoder(WindowPane.Coder.class)
public record WindowPane(
    Instant windowStart,
    Instant windowEnd,
    Timing timing,
    long index,
    boolean isFinal,
    @Nullable IntervalWindow mergedInto) {

  public WindowPane {
    Objects.requireNonNull(windowStart, "windowStart");
    Objects.requireNonNull(windowEnd, "windowEnd");
    Objects.requireNonNull(timing, "timing");
  }

  /** A pane of a result. */
  public WindowPane(
      Instant windowStart, Instant windowEnd, Timing timing, long index, boolean isFinal) {
    this(windowStart, windowEnd, timing, index, isFinal, null);
  }

  /** Whether this pane withdraws its window, which merged into {@link #mergedInto}. */
  public boolean isWithdrawn() {
    return mergedInto != null;
  }

  /** This pane of the window that starts at {@code start} instead, and ends where this one does. */
  public WindowPane startingAt(Instant start) {
    return new WindowPane(start, windowEnd, timing, index, isFinal, mergedInto);
  }

  /** The pane Beam is firing for {@code window}. */
  public static WindowPane of(IntervalWindow window, PaneInfo pane) {
    return new WindowPane(
        window.start(), window.end(), pane.getTiming(), pane.getIndex(), pane.isLast());
  }

  @Override
  public String toString() {
    return "["
        + windowStart.getMillis()
        + ", "
        + windowEnd.getMillis()
        + ") "
        + timing
        + "#"
        + index
        + (isFinal ? " final" : "")
        + (mergedInto == null ? "" : " merged into " + mergedInto);
  }

  /** The coder of {@link WindowPane}. */
  public static final class Coder extends AtomicCoder<WindowPane> {
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(WindowPane.class), INSTANCE);
    }

    @Override
    public void encode(WindowPane pane, OutputStream out) throws IOException {
      InstantCoder.of().encode(pane.windowStart, out);
      InstantCoder.of().encode(pane.windowEnd, out);
      StringUtf8Coder.of().encode(pane.timing.name(), out);
      VarLongCoder.of().encode(pane.index, out);
      BooleanCoder.of().encode(pane.isFinal, out);
      BooleanCoder.of().encode(pane.mergedInto != null, out);
      if (pane.mergedInto != null) {
        IntervalWindow.getCoder().encode(pane.mergedInto, out);
      }
    }

    @Override
    public WindowPane decode(InputStream in) throws IOException {
      return new WindowPane(
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          Timing.valueOf(StringUtf8Coder.of().decode(in)),
          VarLongCoder.of().decode(in),
          BooleanCoder.of().decode(in),
          BooleanCoder.of().decode(in) ? IntervalWindow.getCoder().decode(in) : null);
    }

    @Override
    public void verifyDeterministic() {}
  }
}
