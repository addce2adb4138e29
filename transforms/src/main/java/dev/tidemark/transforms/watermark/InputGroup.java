package dev.tidemark.transforms.watermark;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.watermark.IdleAwareWatermark.Activity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inputs that one reader combines into its watermark (the partitions of a Kafka split), so that
 * an idle input can see whether a sibling is still active.
 *
 * <p>A reader's watermark is the minimum over its inputs; this class decides each input's share of
 * it with {@link IdleAwareWatermark}: an active input reports its own bounded-out-of-orderness
 * watermark; an idle or empty input reports the lowest watermark among its active siblings, so it
 * never holds them back; when no sibling is active, every input reports the group's {@link
 * IdleAwareWatermark#quietWatermark quiet watermark}.
 *
 * <p>Members are keyed, so a reader that the runner re-creates for the same inputs continues from
 * their progress. A member that has not asked for its watermark for {@link #STALE_AFTER} plus the
 * idle timeout belongs to a reader that is gone, and no longer counts. Thread-safe: readers of
 * different splits may share a group when the runner does not serialize sources between them.
 *
 * @param <K> how inputs are named, e.g. Kafka's {@code TopicPartition}
 */
public final class InputGroup<K> {

  /** How long past the idle timeout a member may go without asking before it is forgotten. */
  static final Duration STALE_AFTER = Duration.standardMinutes(1);

  private static final Logger LOG = LoggerFactory.getLogger(InputGroup.class);

  private final IdleAwareWatermark rule;
  private final Map<K, Member> members = new HashMap<>();

  public InputGroup(IdleAwareWatermark rule) {
    this.rule = rule;
  }

  /**
   * Adds the input {@code key}, or continues it if the group knows it already. A restored {@code
   * previousWatermark} counts as event time that has been seen, so a restored input that stays
   * quiet advances from there instead of starting over as empty.
   */
  public synchronized void join(K key, Optional<Instant> previousWatermark, Instant now) {
    Member member = members.computeIfAbsent(key, k -> new Member(InputProgress.startingAt(now)));
    member.lastAskedAt = Watermarks.latest(member.lastAskedAt, now);
    previousWatermark
        .filter(watermark -> watermark.isAfter(Watermarks.MIN))
        .ifPresent(
            watermark -> {
              member.progress.observe(
                  Watermarks.plus(
                      Watermarks.plus(watermark, rule.maxOutOfOrderness()), Duration.millis(1)),
                  member.progress.quietSince());
              member.progress.advanceTo(watermark);
            });
  }

  /**
   * Records that input {@code key} had a record with {@code eventTime} at wall-clock {@code now}.
   */
  public synchronized void observe(K key, Instant eventTime, Instant now) {
    member(key).progress.observe(eventTime, now);
  }

  /**
   * Input {@code key}, which has joined, as a handle that records its records without looking it
   * up: what a reader holds for the input it reads, and calls on every record.
   */
  public synchronized Input input(K key) {
    return new Input(member(key));
  }

  /** One joined input of the group, found once; see {@link #input}. */
  public final class Input {
    private final Member member;

    private Input(Member member) {
      this.member = member;
    }

    /** Records that the input had a record with {@code eventTime} at wall-clock {@code now}. */
    public void observe(Instant eventTime, Instant now) {
      synchronized (InputGroup.this) {
        member.progress.observe(eventTime, now);
      }
    }
  }

  /**
   * Records that input {@code key} could not be seen until {@code now}: a time it cannot have been
   * quiet in, as far as anyone knows ({@link InputProgress#unobservedUntil}).
   */
  public synchronized void unobservedUntil(K key, Instant now) {
    member(key).progress.unobservedUntil(now);
  }

  /** The last watermark that input {@code key} reported. */
  public synchronized Instant lastWatermark(K key) {
    return member(key).progress.watermark();
  }

  /**
   * Input {@code key}'s watermark at {@code now}, given whether it is caught up (no unread data).
   */
  public synchronized Instant watermark(K key, Instant now, boolean caughtUp) {
    return watermark(key, now, caughtUp, now);
  }

  /**
   * As {@link #watermark(Object, Instant, boolean)}, with the input's activity judged at {@code
   * now} (for a Kafka partition, when its backlog was last measured, which may be a second old) and
   * the cap at the clock ({@link IdleAwareWatermark#capAtClock}) taken at {@code wallClock}: a cap
   * at a measurement's time would hold the watermark up to a second behind the records.
   */
  public synchronized Instant watermark(K key, Instant now, boolean caughtUp, Instant wallClock) {
    Member member = member(key);
    member.lastAskedAt = Watermarks.latest(member.lastAskedAt, now);
    Activity previous = member.activity;
    member.caughtUp = caughtUp;
    member.activity = member.activityAt(now);
    Instant candidate =
        member.activity == Activity.ACTIVE
            ? rule.activeWatermark(member.progress)
            : lowestActiveSibling(now).orElseGet(() -> rule.quietWatermark(liveInputs(now), now));
    Instant watermark =
        member.progress.advanceTo(rule.capAtClock(candidate, Watermarks.latest(now, wallClock)));
    // Why did my window not fire? Each input's watermark and activity, as Beam gauges.
    TidemarkMetrics.watermark(key).set(watermark.getMillis());
    TidemarkMetrics.activity(key).set(member.activity.ordinal());
    if (member.activity != previous) {
      LOG.info(
          "{} is {} (was {}); its watermark is {}",
          key,
          member.activity,
          previous,
          Watermarks.describe(watermark));
    }
    return watermark;
  }

  /** What input {@code key} was doing when it last asked for its watermark. */
  public synchronized Activity activity(K key) {
    return member(key).activity;
  }

  private Optional<Instant> lowestActiveSibling(Instant now) {
    @Nullable Instant lowest = null;
    for (Member member : members.values()) {
      // A sibling's activity is judged now, from what it last said about its backlog.
      if (member.isLive(now) && member.activityAt(now) == Activity.ACTIVE) {
        Instant watermark = member.progress.watermark();
        lowest = lowest == null ? watermark : Watermarks.earliest(lowest, watermark);
      }
    }
    return Optional.ofNullable(lowest);
  }

  private List<InputProgress> liveInputs(Instant now) {
    List<InputProgress> live = new ArrayList<>();
    for (Member member : members.values()) {
      if (member.isLive(now)) {
        live.add(member.progress);
      }
    }
    return live;
  }

  private Member member(K key) {
    Member member = members.get(key);
    if (member == null) {
      throw new IllegalStateException(key + " has not joined this group of inputs");
    }
    return member;
  }

  private final class Member {
    final InputProgress progress;

    /** Unknown, so not caught up, until the input first asks for its watermark. */
    boolean caughtUp;

    Activity activity = Activity.ACTIVE;
    Instant lastAskedAt;

    Member(InputProgress progress) {
      this.progress = progress;
      this.lastAskedAt = progress.quietSince();
    }

    Activity activityAt(Instant now) {
      return rule.activity(progress, now, caughtUp);
    }

    boolean isLive(Instant now) {
      return !now.isAfter(
          Watermarks.plus(Watermarks.plus(lastAskedAt, rule.idleTimeout()), STALE_AFTER));
    }
  }
}
