package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Which window and which pane a result belongs to: the window's bounds, the pane's timing ({@code
 * EARLY}, {@code ON_TIME}, {@code LATE}), its index, and whether it is the window's final pane.
 * Encoded by {@link WindowPane.Coder}.
 */
public final class WindowPane {

  private final Instant windowStart;
  private final Instant windowEnd;
  private final Timing timing;
  private final long index;
  private final boolean isFinal;

  public WindowPane(
      Instant windowStart, Instant windowEnd, Timing timing, long index, boolean isFinal) {
    this.windowStart = Objects.requireNonNull(windowStart, "windowStart");
    this.windowEnd = Objects.requireNonNull(windowEnd, "windowEnd");
    this.timing = Objects.requireNonNull(timing, "timing");
    this.index = index;
    this.isFinal = isFinal;
  }

  /** The pane Beam is firing for {@code window}. */
  public static WindowPane of(IntervalWindow window, PaneInfo pane) {
    return new WindowPane(
        window.start(), window.end(), pane.getTiming(), pane.getIndex(), pane.isLast());
  }

  public Instant windowStart() {
    return windowStart;
  }

  public Instant windowEnd() {
    return windowEnd;
  }

  public Timing timing() {
    return timing;
  }

  public long index() {
    return index;
  }

  public boolean isFinal() {
    return isFinal;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    if (!(other instanceof WindowPane)) {
      return false;
    }
    WindowPane that = (WindowPane) other;
    return windowStart.equals(that.windowStart)
        && windowEnd.equals(that.windowEnd)
        && timing == that.timing
        && index == that.index
        && isFinal == that.isFinal;
  }

  @Override
  public int hashCode() {
    return Objects.hash(windowStart, windowEnd, timing, index, isFinal);
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
        + (isFinal ? " final" : "");
  }

  /** The coder of {@link WindowPane}. */
  public static final class Coder extends CustomCoder<WindowPane> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(WindowPane pane, OutputStream out) throws IOException {
      InstantCoder.of().encode(pane.windowStart, out);
      InstantCoder.of().encode(pane.windowEnd, out);
      StringUtf8Coder.of().encode(pane.timing.name(), out);
      VarLongCoder.of().encode(pane.index, out);
      BooleanCoder.of().encode(pane.isFinal, out);
    }

    @Override
    public WindowPane decode(InputStream in) throws IOException {
      return new WindowPane(
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          Timing.valueOf(StringUtf8Coder.of().decode(in)),
          VarLongCoder.of().decode(in),
          BooleanCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
