package dev.tidemark.transforms.io.kafka;

import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.watermark.IdleAwareWatermark;
import dev.tidemark.transforms.watermark.InputGroup;
import java.util.Optional;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.io.kafka.TimestampPolicyFactory;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A KafkaIO {@link TimestampPolicyFactory} with bounded out-of-orderness whose watermark neither
 * overflows nor stalls on empty or idle partitions.
 *
 * <pre>{@code
 * KafkaIO.<String, String>read()
 *     .withTimestampPolicyFactory(
 *         IdleAwareTimestampPolicyFactory.<String, String>byEventTime(r -> parseTime(r.getKV()))
 *             .withMaxOutOfOrderness(Duration.standardSeconds(5))
 *             .withIdleTimeout(Duration.standardSeconds(10)))
 * }</pre>
 *
 * <p>What it guarantees, per partition, under {@link IdleAwareWatermark}'s rule:
 *
 * <ul>
 *   <li>the watermark is {@code maxEventTime - maxOutOfOrderness - 1 ms} while data flows, never
 *       moves backwards, and continues from {@code previousWatermark} after a restore;
 *   <li>a partition that has never had a record, or that is caught up (backlog 0) and has been
 *       quiet for {@code idleTimeout}, does not hold the watermark back while another partition of
 *       the same reader is active (Beam's {@code CustomTimestampPolicyWithLimitedDelay} holds it at
 *       the minimum forever for a partition that never had a record, Beam issue #20908);
 *   <li>an unknown backlog is never treated as idle, and a time in which the backlog could not be
 *       measured (the broker down or out of reach) does not count as quiet: a record may have been
 *       waiting in a producer all that time;
 *   <li>the watermark never passes the wall clock minus the bound, and a record too far ahead of
 *       the clock does not move it ({@link ClockSkewGuard});
 *   <li>when all of a reader's partitions are quiet, the watermark moves at the pace of the wall
 *       clock from the last record, so the last window fires for live data and for replays;
 *       partitions that never had any record follow the wall clock.
 * </ul>
 *
 * <p>What it does not do: it cannot see partitions of other readers. When a reader on another
 * worker replays history faster than real time while this reader is idle, this reader's watermark
 * advances at the wall clock's pace and paces the other one; nothing is lost, windows fire later.
 * Historical data produced into a topic whose partitions have all been empty and quiet for {@code
 * idleTimeout} arrives behind a wall-clock watermark and is late; produce it before the job starts.
 *
 * <p>Policies made by one factory instance share an {@link InputGroup}; it is transient, so each
 * deserialized copy (one per split on a distributed runner) has its own.
 */
public final class IdleAwareTimestampPolicyFactory<K, V> implements TimestampPolicyFactory<K, V> {

  private static final long serialVersionUID = 1L;

  /** Used unless {@link #withIdleTimeout} says otherwise. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.standardSeconds(10);

  private final SerializableFunction<KafkaRecord<K, V>, @Nullable Instant> eventTime;
  private final IdleAwareWatermark rule;
  private transient @Nullable InputGroup<TopicPartition> group;

  private IdleAwareTimestampPolicyFactory(
      SerializableFunction<KafkaRecord<K, V>, @Nullable Instant> eventTime,
      IdleAwareWatermark rule) {
    this.eventTime = eventTime;
    this.rule = rule;
  }

  /**
   * Event time taken from each record by {@code eventTime} (typically a payload field). A record
   * for which it returns null or throws carries the partition's current watermark instead.
   */
  public static <K, V> IdleAwareTimestampPolicyFactory<K, V> byEventTime(
      SerializableFunction<KafkaRecord<K, V>, @Nullable Instant> eventTime) {
    return new IdleAwareTimestampPolicyFactory<>(
        eventTime, IdleAwareWatermark.emptyFollowsWallClock(Duration.ZERO, DEFAULT_IDLE_TIMEOUT));
  }

  /** Event time is the Kafka record's own timestamp (create time or log-append time). */
  public static <K, V> IdleAwareTimestampPolicyFactory<K, V> byRecordTimestamp() {
    return byEventTime(record -> new Instant(record.getTimestamp()));
  }

  /** How far behind the newest event time an event may arrive and still be on time. */
  public IdleAwareTimestampPolicyFactory<K, V> withMaxOutOfOrderness(Duration maxOutOfOrderness) {
    return new IdleAwareTimestampPolicyFactory<>(
        eventTime,
        IdleAwareWatermark.emptyFollowsWallClock(maxOutOfOrderness, rule.idleTimeout())
            .withClockSkewGuard(rule.clockSkewGuard()));
  }

  /** How long a caught-up partition must be quiet before it stops holding the watermark. */
  public IdleAwareTimestampPolicyFactory<K, V> withIdleTimeout(Duration idleTimeout) {
    return new IdleAwareTimestampPolicyFactory<>(
        eventTime,
        IdleAwareWatermark.emptyFollowsWallClock(rule.maxOutOfOrderness(), idleTimeout)
            .withClockSkewGuard(rule.clockSkewGuard()));
  }

  /**
   * How far ahead of the wall clock an event time may be ({@link ClockSkewGuard}); a record further
   * ahead does not move the watermark. Default {@link ClockSkewGuard#DEFAULT_MAX_FUTURE_SKEW}.
   */
  public IdleAwareTimestampPolicyFactory<K, V> withMaxFutureSkew(Duration maxFutureSkew) {
    return new IdleAwareTimestampPolicyFactory<>(
        eventTime, rule.withClockSkewGuard(ClockSkewGuard.allowingFutureSkew(maxFutureSkew)));
  }

  @Override
  public TimestampPolicy<K, V> createTimestampPolicy(
      TopicPartition partition, Optional<Instant> previousWatermark) {
    return createTimestampPolicy(partition, previousWatermark, Instant.now());
  }

  synchronized TimestampPolicy<K, V> createTimestampPolicy(
      TopicPartition partition, Optional<Instant> previousWatermark, Instant now) {
    if (group == null) {
      group = new InputGroup<>(rule);
    }
    group.join(partition, previousWatermark, now);
    return new IdleAwareTimestampPolicy<>(partition, group, eventTime, rule.clockSkewGuard());
  }
}
