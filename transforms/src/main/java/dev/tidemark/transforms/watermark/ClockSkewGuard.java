package dev.tidemark.transforms.watermark;

import java.io.Serializable;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The one rule that keeps a wrong clock from breaking the watermark, shared by every tidemark
 * source (files, the generator, sockets, Kafka) and by {@code ParseEvents}.
 *
 * <ul>
 *   <li>A record whose event time is more than {@code maxFutureSkew} ahead of the wall clock, or
 *       before {@link #EARLIEST_EVENT_TIME}, is not admitted ({@link #admit} returns null): the
 *       source emits it at its current watermark without moving the watermark, and {@code
 *       ParseEvents} routes it to the dead-letter output with {@link #reason}. It opens no window.
 *   <li>A watermark never passes the wall clock minus {@code maxOutOfOrderness} ({@link
 *       #capAtClock}), whatever the records say. Beam's {@code
 *       CustomTimestampPolicyWithLimitedDelay} caps at the clock for the same reason; Flink's
 *       bounded-out-of-orderness generator does not.
 * </ul>
 *
 * <p>Why both places agree: the source asks at the moment it reads a record (a replay, at the start
 * of the batch the record is read in), {@code ParseEvents} later. The clock only moves forward, so
 * a record that {@code ParseEvents} finds too far ahead was too far ahead when the source read it:
 * no dead letter has ever moved a watermark. The reverse can happen within a few milliseconds of
 * the limit (the source held the watermark, the parse step admits the record); such a record is
 * simply one that did not advance the watermark.
 *
 * <p>The default, {@link #DEFAULT_MAX_FUTURE_SKEW} (15 minutes), is far beyond the skew of
 * NTP-synchronised hosts and catches the failures this guard is for: a producer whose clock is
 * years off, microseconds read as milliseconds, {@code Long.MAX_VALUE} as a placeholder.
 *
 * <p>The floor, {@link #EARLIEST_EVENT_TIME} (1973-03-03, epoch millisecond 100,000,000,000), is
 * fixed: every event time below it that a stream has shown us was a mistake, not history. It is
 * seconds read as milliseconds (any time from 1973 to 5138 in seconds falls below it), a zero or a
 * negative placeholder. Counted as milliseconds, such a record would land in January 1970 as a late
 * record of a window that closed long ago; as a dead letter it says what is wrong with it.
 */
public final class ClockSkewGuard implements Serializable {

  private static final long serialVersionUID = 1L;

  /** How far ahead of the wall clock an event time may be unless configured otherwise. */
  public static final Duration DEFAULT_MAX_FUTURE_SKEW = Duration.standardMinutes(15);

  /** The earliest event time admitted: 1973-03-03T09:46:40Z, epoch millisecond 10^11. */
  public static final Instant EARLIEST_EVENT_TIME = new Instant(100_000_000_000L);

  private final Duration maxFutureSkew;

  private ClockSkewGuard(Duration maxFutureSkew) {
    this.maxFutureSkew = maxFutureSkew;
  }

  /** Admits event times up to {@code maxFutureSkew} ahead of the wall clock. */
  public static ClockSkewGuard allowingFutureSkew(Duration maxFutureSkew) {
    if (maxFutureSkew == null || maxFutureSkew.getMillis() < 0) {
      throw new IllegalArgumentException(
          "maxFutureSkew: " + maxFutureSkew + " is not allowed; use zero or more, e.g. 15m");
    }
    return new ClockSkewGuard(maxFutureSkew);
  }

  /** Admits event times up to {@link #DEFAULT_MAX_FUTURE_SKEW} ahead of the wall clock. */
  public static ClockSkewGuard withDefaultSkew() {
    return new ClockSkewGuard(DEFAULT_MAX_FUTURE_SKEW);
  }

  public Duration maxFutureSkew() {
    return maxFutureSkew;
  }

  /**
   * Whether {@code eventTime} is refused at {@code now}: more than {@code maxFutureSkew} ahead of
   * it, or before {@link #EARLIEST_EVENT_TIME}.
   */
  public boolean refuses(Instant eventTime, Instant now) {
    // In epoch millis: every replayed record is asked, so nothing is allocated.
    long millis = eventTime.getMillis();
    return millis < EARLIEST_EVENT_TIME.getMillis()
        || millis > Watermarks.plusMillis(now.getMillis(), maxFutureSkew.getMillis());
  }

  /**
   * The event time a source may use for its watermark: {@code eventTime} clamped to Beam's range,
   * or null when there is none or the guard {@link #refuses} it.
   */
  public @Nullable Instant admit(@Nullable Instant eventTime, Instant now) {
    if (eventTime == null) {
      return null;
    }
    Instant clamped = Watermarks.clamp(eventTime);
    return refuses(clamped, now) ? null : clamped;
  }

  /**
   * Why a record at {@code eventTime} is a dead letter at {@code now}; for the dead-letter output.
   */
  public String reason(Instant eventTime, Instant now) {
    if (eventTime.isBefore(EARLIEST_EVENT_TIME)) {
      return tooEarlyReason(eventTime.getMillis());
    }
    Duration ahead = new Duration(now, Watermarks.clamp(eventTime));
    return "event time "
        + eventTime.getMillis()
        + " is "
        + DurationText.describe(ahead)
        + " ahead of the clock ("
        + now
        + "); at most "
        + DurationText.describe(maxFutureSkew)
        + " is accepted (--maxFutureSkew)";
  }

  private static String tooEarlyReason(long millis) {
    String before =
        "event time " + millis + " is before " + EARLIEST_EVENT_TIME + ", the earliest accepted";
    if (millis >= 1_000_000_000L) {
      return before
          + ": it looks like seconds, not milliseconds ("
          + new Instant(millis * 1000)
          + " as seconds); multiply it by 1000 at the source, or use a field in milliseconds";
    }
    return before + ": a placeholder or a broken clock, not an event time";
  }

  /** {@code watermark}, but never later than {@code now - maxOutOfOrderness}. */
  public static Instant capAtClock(Instant watermark, Instant now, Duration maxOutOfOrderness) {
    return Watermarks.earliest(watermark, clockCap(now, maxOutOfOrderness));
  }

  /**
   * The latest watermark {@link #capAtClock} allows at {@code now}: {@code now -
   * maxOutOfOrderness}. For a caller that caps many watermarks at one reading of the clock.
   */
  public static Instant clockCap(Instant now, Duration maxOutOfOrderness) {
    return Watermarks.minus(now, maxOutOfOrderness);
  }

  @Override
  public String toString() {
    return "ClockSkewGuard{maxFutureSkew=" + maxFutureSkew + "}";
  }
}
