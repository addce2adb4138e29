package dev.tidemark.transforms.watermark;

import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.math.LongMath;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Saturating event-time arithmetic: the one place in tidemark where a timestamp and a duration are
 * added or subtracted.
 *
 * <p>Every result is clamped to Beam's valid range {@code [BoundedWindow.TIMESTAMP_MIN_VALUE,
 * BoundedWindow.TIMESTAMP_MAX_VALUE]}. "No data yet" ({@code TIMESTAMP_MIN_VALUE}) minus an
 * out-of-orderness bound stays {@code TIMESTAMP_MIN_VALUE}; it never wraps around to a far-future
 * value the way {@code Long.MIN_VALUE - 1000} does in a hand-written watermark generator (scenario
 * S1).
 */
public final class Watermarks {

  /** The earliest timestamp Beam accepts; the watermark of an input that knows nothing yet. */
  public static final Instant MIN = BoundedWindow.TIMESTAMP_MIN_VALUE;

  /** The latest timestamp Beam accepts; a watermark there means the input is complete. */
  public static final Instant MAX = BoundedWindow.TIMESTAMP_MAX_VALUE;

  private static final Duration ONE_MILLI = Duration.millis(1);

  private Watermarks() {}

  /** {@code millis} since the epoch as an instant, clamped to Beam's range. */
  public static Instant ofEpochMillis(long millis) {
    return new Instant(clampMillis(millis));
  }

  /** {@code instant} clamped to Beam's range: {@code instant} itself when it is in range. */
  public static Instant clamp(Instant instant) {
    long millis = instant.getMillis();
    return millis == clampMillis(millis) ? instant : ofEpochMillis(millis);
  }

  /** {@code instant + duration}, clamped to Beam's range; never overflows. */
  public static Instant plus(Instant instant, Duration duration) {
    return new Instant(plusMillis(instant.getMillis(), duration.getMillis()));
  }

  /** {@link #plus} in epoch millis, for a caller that must not allocate. */
  public static long plusMillis(long millis, long durationMillis) {
    return clampMillis(LongMath.saturatedAdd(millis, durationMillis));
  }

  /** {@code instant - duration}, clamped to Beam's range; never overflows. */
  public static Instant minus(Instant instant, Duration duration) {
    return ofEpochMillis(LongMath.saturatedSubtract(instant.getMillis(), duration.getMillis()));
  }

  /**
   * The bounded-out-of-orderness watermark for the newest event time seen: {@code maxEventTime -
   * maxOutOfOrderness - 1 ms}, the convention under which an event exactly {@code
   * maxOutOfOrderness} behind the newest one is still on time.
   */
  public static Instant behind(Instant maxEventTime, Duration maxOutOfOrderness) {
    return minus(minus(maxEventTime, maxOutOfOrderness), ONE_MILLI);
  }

  /** The later of two instants. */
  public static Instant latest(Instant a, Instant b) {
    return a.isBefore(b) ? b : a;
  }

  /** The earlier of two instants. */
  public static Instant earliest(Instant a, Instant b) {
    return a.isAfter(b) ? b : a;
  }

  /** {@code instant} for a log line: "MIN (no event time yet)", "MAX (complete)" or ISO-8601. */
  public static String describe(Instant instant) {
    if (!instant.isAfter(MIN)) {
      return "MIN (no event time yet)";
    }
    if (!instant.isBefore(MAX)) {
      return "MAX (complete)";
    }
    return instant.toString();
  }

  private static long clampMillis(long millis) {
    return Math.max(MIN.getMillis(), Math.min(MAX.getMillis(), millis));
  }
}
