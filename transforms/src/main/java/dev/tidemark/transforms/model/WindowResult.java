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
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * One pane of one key's aggregate in one window: the window bounds, count and sum so far (panes
 * accumulate), the pane's timing ({@code EARLY}, {@code ON_TIME}, {@code LATE}), its index, and
 * whether it is the window's final pane. A consumer keeps the latest pane per (key, window); the
 * final pane holds everything that was not captured as late. Encoded by {@link WindowResult.Coder}.
 */
public final class WindowResult {

  private final String key;
  private final Instant windowStart;
  private final Instant windowEnd;
  private final long count;
  private final long sum;
  private final Timing timing;
  private final long paneIndex;
  private final boolean isFinal;

  public WindowResult(
      String key,
      Instant windowStart,
      Instant windowEnd,
      long count,
      long sum,
      Timing timing,
      long paneIndex,
      boolean isFinal) {
    this.key = Objects.requireNonNull(key, "key");
    this.windowStart = Objects.requireNonNull(windowStart, "windowStart");
    this.windowEnd = Objects.requireNonNull(windowEnd, "windowEnd");
    this.count = count;
    this.sum = sum;
    this.timing = Objects.requireNonNull(timing, "timing");
    this.paneIndex = paneIndex;
    this.isFinal = isFinal;
  }

  public String key() {
    return key;
  }

  public Instant windowStart() {
    return windowStart;
  }

  public Instant windowEnd() {
    return windowEnd;
  }

  public long count() {
    return count;
  }

  public long sum() {
    return sum;
  }

  public Timing timing() {
    return timing;
  }

  public long paneIndex() {
    return paneIndex;
  }

  public boolean isFinal() {
    return isFinal;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    if (!(other instanceof WindowResult)) {
      return false;
    }
    WindowResult that = (WindowResult) other;
    return key.equals(that.key)
        && windowStart.equals(that.windowStart)
        && windowEnd.equals(that.windowEnd)
        && count == that.count
        && sum == that.sum
        && timing == that.timing
        && paneIndex == that.paneIndex
        && isFinal == that.isFinal;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, windowStart, windowEnd, count, sum, timing, paneIndex, isFinal);
  }

  @Override
  public String toString() {
    return key
        + " ["
        + windowStart.getMillis()
        + ", "
        + windowEnd.getMillis()
        + ") count="
        + count
        + " sum="
        + sum
        + " "
        + timing
        + (isFinal ? " final" : "");
  }

  /** The coder of {@link WindowResult}. */
  public static final class Coder extends CustomCoder<WindowResult> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(WindowResult result, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(result.key, out);
      InstantCoder.of().encode(result.windowStart, out);
      InstantCoder.of().encode(result.windowEnd, out);
      VarLongCoder.of().encode(result.count, out);
      VarLongCoder.of().encode(result.sum, out);
      StringUtf8Coder.of().encode(result.timing.name(), out);
      VarLongCoder.of().encode(result.paneIndex, out);
      BooleanCoder.of().encode(result.isFinal, out);
    }

    @Override
    public WindowResult decode(InputStream in) throws IOException {
      return new WindowResult(
          StringUtf8Coder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          VarLongCoder.of().decode(in),
          VarLongCoder.of().decode(in),
          Timing.valueOf(StringUtf8Coder.of().decode(in)),
          VarLongCoder.of().decode(in),
          BooleanCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
