package dev.tidemark.transforms.watermark;

import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * What one input (a Kafka partition, a socket) has shown of event time: the newest event time, the
 * wall-clock time since which it has been quiet, and the watermark it last reported.
 *
 * <p>The watermark only moves forwards ({@link #advanceTo}). Mutable and not thread-safe: {@link
 * InputGroup} and {@link IdleAwareWatermarkEstimator} own their instances.
 */
public final class InputProgress {

  private @Nullable Instant maxEventTime;
  private Instant quietSince;
  private Instant watermark;

  private InputProgress(@Nullable Instant maxEventTime, Instant quietSince, Instant watermark) {
    this.maxEventTime = maxEventTime;
    this.quietSince = quietSince;
    this.watermark = watermark;
  }

  /** An input that has shown nothing yet; {@code now} is when it started being watched. */
  public static InputProgress startingAt(Instant now) {
    return new InputProgress(null, now, Watermarks.MIN);
  }

  /** An input restored from its state: the inverse of {@link #maxEventTime()} and friends. */
  public static InputProgress restore(
      @Nullable Instant maxEventTime, Instant quietSince, Instant watermark) {
    return new InputProgress(maxEventTime, quietSince, watermark);
  }

  /** Records that an event with {@code eventTime} arrived at wall-clock time {@code now}. */
  public void observe(Instant eventTime, Instant now) {
    maxEventTime = maxEventTime == null ? eventTime : Watermarks.latest(maxEventTime, eventTime);
    quietSince = Watermarks.latest(quietSince, now);
  }

  /**
   * Records that nothing could be seen of the input until {@code now} (its backlog could not be
   * measured): its quiet time starts over here, since nobody can say it was quiet before.
   */
  public void unobservedUntil(Instant now) {
    quietSince = Watermarks.latest(quietSince, now);
  }

  /** Moves the watermark to {@code candidate} unless it is already later; returns the watermark. */
  public Instant advanceTo(Instant candidate) {
    watermark = Watermarks.latest(watermark, candidate);
    return watermark;
  }

  /** Whether any event time is known (observed, or implied by a restored watermark). */
  public boolean hasEventTime() {
    return maxEventTime != null;
  }

  /** The newest event time, or {@code null} when none is known. */
  public @Nullable Instant maxEventTime() {
    return maxEventTime;
  }

  /** The wall-clock time of the last record, or of the start when there was none since. */
  public Instant quietSince() {
    return quietSince;
  }

  /** The last watermark this input reported. */
  public Instant watermark() {
    return watermark;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    if (!(other instanceof InputProgress)) {
      return false;
    }
    InputProgress that = (InputProgress) other;
    return Objects.equals(maxEventTime, that.maxEventTime)
        && quietSince.equals(that.quietSince)
        && watermark.equals(that.watermark);
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxEventTime, quietSince, watermark);
  }

  @Override
  public String toString() {
    return "InputProgress{maxEventTime="
        + maxEventTime
        + ", quietSince="
        + quietSince
        + ", watermark="
        + watermark
        + "}";
  }
}
