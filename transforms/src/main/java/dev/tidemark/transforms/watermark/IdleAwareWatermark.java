package dev.tidemark.transforms.watermark;

import java.io.Serializable;
import java.util.Collection;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The watermark rule that every tidemark source shares: bounded out-of-orderness while data flows,
 * and a watermark that keeps moving while the input is idle.
 *
 * <h2>The rule</h2>
 *
 * <p>An input is <b>active</b> while it has unread data, while its backlog is unknown, or until it
 * has been quiet (no record) for {@code idleTimeout}. Its watermark is then {@code maxEventTime -
 * maxOutOfOrderness - 1 ms} ({@link Watermarks#behind}), or the minimum before the first record.
 *
 * <p>An input that is caught up and has been quiet for {@code idleTimeout} is <b>idle</b>. An idle
 * input never holds back a sibling that is still active: in an {@link InputGroup} it takes the
 * lowest watermark among its active siblings. When every input of a group is quiet, event time is
 * assumed to move at the pace of the wall clock from the last record:
 *
 * <pre>{@code
 * watermark = maxEventTime - maxOutOfOrderness - 1 ms + (now - wall-clock time of the last record)
 * }</pre>
 *
 * <p>Why this rule and not "jump to the wall clock": for live data (event time close to the wall
 * clock) the two are the same, and the last window closes {@code idleTimeout} after the last record
 * at the latest if its end is within {@code idleTimeout - maxOutOfOrderness} of the newest event,
 * and at the pace of the clock otherwise. For a replay of history (event times years old) a jump to
 * the wall clock would make every record that arrives after a pause late; this rule only closes
 * what the pause covers: after a pause of {@code p}, records older than {@code maxEventTime -
 * maxOutOfOrderness + p} are late, and are captured as such downstream, never dropped silently.
 *
 * <p>An input that has never had a record is <b>empty</b>. Whether an all-empty group follows the
 * wall clock ({@code behind(now)}) after {@code idleTimeout} or holds at the minimum is a property
 * of the source: a Kafka partition with no records and no backlog is verifiably empty, so a record
 * produced later is newer than now, and holding would stall every other partition (scenarios S4,
 * S5); a socket that has sent nothing may be about to replay history (scenario S1), and holding
 * costs nothing because there is no data to fire.
 *
 * <p>Whatever the records say, the watermark never passes the wall clock minus {@code
 * maxOutOfOrderness}, and a record too far ahead of the clock is not admitted ({@link
 * ClockSkewGuard}). All arithmetic saturates ({@link Watermarks}); the watermark never moves
 * backwards.
 */
public final class IdleAwareWatermark implements Serializable {

  private static final long serialVersionUID = 1L;

  /** What an input is doing, as far as its watermark is concerned. */
  public enum Activity {
    /** Has unread or recent data, or an unknown backlog: its own event time decides. */
    ACTIVE,
    /** Caught up and quiet for the idle timeout after having had data. */
    IDLE,
    /** Caught up and quiet for the idle timeout without ever having had data. */
    EMPTY
  }

  private final Duration maxOutOfOrderness;
  private final Duration idleTimeout;
  private final boolean emptyFollowsWallClock;
  private final ClockSkewGuard clockSkewGuard;

  private IdleAwareWatermark(
      Duration maxOutOfOrderness,
      Duration idleTimeout,
      boolean emptyFollowsWallClock,
      ClockSkewGuard clockSkewGuard) {
    this.maxOutOfOrderness = maxOutOfOrderness;
    this.idleTimeout = idleTimeout;
    this.emptyFollowsWallClock = emptyFollowsWallClock;
    this.clockSkewGuard = clockSkewGuard;
  }

  /**
   * The rule for inputs whose emptiness is verifiable (Kafka partitions): an all-empty group
   * follows the wall clock once it has been quiet for {@code idleTimeout}.
   */
  public static IdleAwareWatermark emptyFollowsWallClock(
      Duration maxOutOfOrderness, Duration idleTimeout) {
    return new IdleAwareWatermark(
        requireNonNegative("maxOutOfOrderness", maxOutOfOrderness),
        requirePositive("idleTimeout", idleTimeout),
        true,
        ClockSkewGuard.withDefaultSkew());
  }

  /**
   * The rule for inputs that may replay history at any time (sockets): an input that has never had
   * a record holds the watermark at the minimum.
   */
  public static IdleAwareWatermark emptyHolds(Duration maxOutOfOrderness, Duration idleTimeout) {
    return new IdleAwareWatermark(
        requireNonNegative("maxOutOfOrderness", maxOutOfOrderness),
        requirePositive("idleTimeout", idleTimeout),
        false,
        ClockSkewGuard.withDefaultSkew());
  }

  /** The same rule with {@code guard} deciding which event times are too far ahead of the clock. */
  public IdleAwareWatermark withClockSkewGuard(ClockSkewGuard guard) {
    return new IdleAwareWatermark(maxOutOfOrderness, idleTimeout, emptyFollowsWallClock, guard);
  }

  /** Which event times a source may admit, and the dead-letter reason for the others. */
  public ClockSkewGuard clockSkewGuard() {
    return clockSkewGuard;
  }

  /**
   * {@code candidate}, capped so that it never passes the wall clock minus the bound ({@link
   * ClockSkewGuard#capAtClock}).
   */
  Instant capAtClock(Instant candidate, Instant now) {
    return ClockSkewGuard.capAtClock(candidate, now, maxOutOfOrderness);
  }

  public Duration maxOutOfOrderness() {
    return maxOutOfOrderness;
  }

  public Duration idleTimeout() {
    return idleTimeout;
  }

  /** What {@code input} is doing at {@code now}, given whether it has unread data. */
  public Activity activity(InputProgress input, Instant now, boolean caughtUp) {
    boolean quietLongEnough =
        !now.isBefore(Watermarks.plus(input.quietSince(), idleTimeout)) && caughtUp;
    if (!quietLongEnough) {
      return Activity.ACTIVE;
    }
    return input.hasEventTime() ? Activity.IDLE : Activity.EMPTY;
  }

  /** The watermark an active input's own event time allows. */
  public Instant activeWatermark(InputProgress input) {
    Instant maxEventTime = input.maxEventTime();
    return maxEventTime == null
        ? Watermarks.MIN
        : Watermarks.behind(maxEventTime, maxOutOfOrderness);
  }

  /**
   * The watermark of a group of inputs that are all idle or empty at {@code now}: the wall-clock
   * pace from the group's last record, or for an all-empty group the wall clock itself or the
   * minimum (see the class documentation).
   */
  public Instant quietWatermark(Collection<InputProgress> inputs, Instant now) {
    @Nullable Instant maxEventTime = null;
    @Nullable Instant lastRecordAt = null;
    for (InputProgress input : inputs) {
      Instant inputMax = input.maxEventTime();
      if (inputMax != null) {
        maxEventTime = maxEventTime == null ? inputMax : Watermarks.latest(maxEventTime, inputMax);
        lastRecordAt =
            lastRecordAt == null
                ? input.quietSince()
                : Watermarks.latest(lastRecordAt, input.quietSince());
      }
    }
    if (maxEventTime == null || lastRecordAt == null) {
      return emptyFollowsWallClock ? Watermarks.behind(now, maxOutOfOrderness) : Watermarks.MIN;
    }
    // Event time is assumed to have moved on as far as the wall clock since the last record.
    Duration quietFor = new Duration(Watermarks.earliest(lastRecordAt, now), now);
    return Watermarks.plus(Watermarks.behind(maxEventTime, maxOutOfOrderness), quietFor);
  }

  /**
   * Advances the watermark of an input that has no siblings (a socket) and returns it: the
   * single-input case of {@link InputGroup#watermark}.
   */
  public Instant advanceLoneInput(InputProgress input, Instant now, boolean caughtUp) {
    Instant candidate =
        activity(input, now, caughtUp) == Activity.ACTIVE
            ? activeWatermark(input)
            : quietWatermark(List.of(input), now);
    return input.advanceTo(capAtClock(candidate, now));
  }

  @Override
  public String toString() {
    return "IdleAwareWatermark{maxOutOfOrderness="
        + maxOutOfOrderness
        + ", idleTimeout="
        + idleTimeout
        + ", emptyFollowsWallClock="
        + emptyFollowsWallClock
        + ", "
        + clockSkewGuard
        + "}";
  }

  private static Duration requireNonNegative(String name, Duration duration) {
    if (duration == null || duration.getMillis() < 0) {
      throw new IllegalArgumentException(
          name + ": " + duration + " is not allowed; use a duration of zero or more, e.g. 5s");
    }
    return duration;
  }

  private static Duration requirePositive(String name, Duration duration) {
    if (duration == null || duration.getMillis() <= 0) {
      throw new IllegalArgumentException(
          name + ": " + duration + " is not allowed; use a positive duration, e.g. 10s");
    }
    return duration;
  }
}
