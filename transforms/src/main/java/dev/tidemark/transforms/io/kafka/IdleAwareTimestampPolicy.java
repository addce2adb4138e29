package dev.tidemark.transforms.io.kafka;

import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.watermark.IdleAwareWatermark;
import dev.tidemark.transforms.watermark.InputGroup;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.annotations.VisibleForTesting;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The {@link TimestampPolicy} of one Kafka partition under {@link IdleAwareWatermark}'s rule.
 * Created by {@link IdleAwareTimestampPolicyFactory}, which also explains the semantics.
 *
 * <p>"Now" for the partition's activity is the partition context's backlog check time: the moment
 * the backlog was last measured. A partition only counts as quiet if no record was read after that
 * moment, so a record that arrived between the measurement and the watermark query is never
 * overtaken. The cap at the clock (the watermark never passes the clock minus the bound) is taken
 * at the clock itself, not at that moment, which is up to a second old.
 *
 * <p>KafkaIO, and tidemark's own reader ({@link EndOffsetsProbe}), measure the backlog every
 * second. When two measurements are further apart than {@link #BLIND_AFTER}, the broker could not
 * be asked in between (it was down, or unreachable), and a record may have been on its way all that
 * time: a producer holds it until the broker is back. So such a gap does not count as quiet time;
 * the partition's quiet time starts over at the measurement after it.
 */
final class IdleAwareTimestampPolicy<K, V> extends TimestampPolicy<K, V> {

  /** Three of KafkaIO's backlog measurements missed: the partition was out of sight. */
  static final Duration BLIND_AFTER = Duration.standardSeconds(3);

  private final TopicPartition partition;
  private final InputGroup<TopicPartition> group;
  private final InputGroup<TopicPartition>.Input input;
  private final SerializableFunction<KafkaRecord<K, V>, @Nullable Instant> eventTime;
  private final ClockSkewGuard clockSkewGuard;

  /** The latest backlog check time seen, in epoch milliseconds; none yet is the minimum. */
  private long lastBacklogCheckMillis = Long.MIN_VALUE;

  IdleAwareTimestampPolicy(
      TopicPartition partition,
      InputGroup<TopicPartition> group,
      SerializableFunction<KafkaRecord<K, V>, @Nullable Instant> eventTime,
      ClockSkewGuard clockSkewGuard) {
    this.partition = partition;
    this.group = group;
    this.input = group.input(partition);
    this.eventTime = eventTime;
    this.clockSkewGuard = clockSkewGuard;
  }

  @Override
  public Instant getTimestampForRecord(PartitionContext context, KafkaRecord<K, V> record) {
    return getTimestampForRecord(record, Instant.now());
  }

  /**
   * The record's event time, clamped to Beam's range. A record without one (the function returned
   * null or threw), or with one too far ahead of the clock ({@link ClockSkewGuard}), gets the
   * partition's current watermark: it is neither late nor a reason to move the watermark, and the
   * parse step downstream routes it to the dead-letter output.
   */
  @VisibleForTesting
  Instant getTimestampForRecord(KafkaRecord<K, V> record, Instant now) {
    @Nullable Instant admitted = clockSkewGuard.admit(eventTimeOrNull(record), now);
    if (admitted == null) {
      return group.lastWatermark(partition);
    }
    input.observe(admitted, now);
    return admitted;
  }

  @Override
  public Instant getWatermark(PartitionContext context) {
    return getWatermark(context, Instant.now());
  }

  /**
   * The watermark, with the partition's activity judged at its backlog's check time and the cap at
   * the clock at {@code now}: the check time is up to a second old, and a cap there would hold the
   * watermark up to a second, and more when a measurement is slow, behind records that are on time.
   */
  @VisibleForTesting
  Instant getWatermark(PartitionContext context, Instant now) {
    Instant checked = context.getBacklogCheckTime();
    // Asked on every record: compared in milliseconds, with nothing allocated.
    long checkedMillis = checked.getMillis();
    if (lastBacklogCheckMillis != Long.MIN_VALUE
        && checkedMillis - lastBacklogCheckMillis > BLIND_AFTER.getMillis()) {
      group.unobservedUntil(partition, checked);
    }
    lastBacklogCheckMillis = Math.max(lastBacklogCheckMillis, checkedMillis);
    // A backlog of exactly 0 is "caught up"; BACKLOG_UNKNOWN (-1) is never treated as idle.
    return group.watermark(partition, checked, context.getMessageBacklog() == 0, now);
  }

  private @Nullable Instant eventTimeOrNull(KafkaRecord<K, V> record) {
    try {
      return eventTime.apply(record);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
