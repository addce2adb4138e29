package dev.tidemark.transforms.io.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a {@link KafkaTopicSource} split: its partitions, assigned to one consumer, from the
 * offsets of the checkpoint mark it is restored from, or else from the group's committed offsets,
 * or else from where {@code auto.offset.reset} says.
 *
 * <p>Each record is deserialized, wrapped in a {@link KafkaRecord} and stamped by its partition's
 * timestamp policy, and nothing else: no per-record metrics, no hand-off between threads. The
 * reader polls on the thread that reads, for at most {@link #POLL} when nothing is at hand; the
 * consumer fetches the next records while the reader works through the last ones.
 *
 * <p>The watermark is the lowest of the partitions' policies' watermarks. A policy's {@code
 * PartitionContext} is the partition's backlog (its end offset, from the {@link EndOffsetsProbe},
 * minus the offset of the next record to read) and the moment that end offset was measured.
 *
 * <p>A checkpoint mark holds each partition's next offset and watermark. When the runner finalizes
 * it and the read commits offsets, the reader commits them to the group on its own thread (a
 * consumer is not thread-safe) as it reads on, and what is still to commit when it closes.
 */
final class KafkaTopicReader<K, V> extends UnboundedSource.UnboundedReader<KafkaRecord<K, V>> {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaTopicReader.class);

  /** How long a read waits for records when it has none at hand. */
  static final Duration POLL = Duration.ofMillis(10);

  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final KafkaTopicSource<K, V> source;

  /** Each partition read, in the split's order. */
  private final Map<TopicPartition, PartitionReading> partitions = new LinkedHashMap<>();

  private final AtomicReference<@Nullable KafkaOffsets> toCommit = new AtomicReference<>();
  private final @Nullable KafkaOffsets restoredFrom;

  /** Whether the read commits the offsets of the marks finalized. */
  private final boolean commits;

  /** Whether the reader has closed: a mark finalized after that commits nothing. */
  private volatile boolean closed;

  private @Nullable Consumer<byte[], byte[]> consumer;
  private @Nullable EndOffsetsProbe probe;
  private @Nullable Deserializer<K> keys;
  private @Nullable Deserializer<V> values;

  /** The last poll, handed out partition by partition. */
  private ConsumerRecords<byte[], byte[]> polled = ConsumerRecords.empty();

  private Iterator<TopicPartition> polledPartitions = Collections.emptyIterator();
  private @Nullable PartitionReading reading;
  private Iterator<ConsumerRecord<byte[], byte[]>> records = Collections.emptyIterator();
  private @Nullable KafkaRecord<K, V> current;
  private Instant currentTimestamp = BoundedWindow.TIMESTAMP_MIN_VALUE;

  KafkaTopicReader(
      KafkaTopicSource<K, V> source,
      List<TopicPartition> topicPartitions,
      @Nullable KafkaOffsets restoredFrom) {
    this.source = source;
    this.restoredFrom = restoredFrom;
    this.commits = source.commitsOffsets();
    for (TopicPartition partition : topicPartitions) {
      TimestampPolicy<K, V> policy =
          source
              .timestampPolicies()
              .createTimestampPolicy(
                  partition,
                  restoredFrom == null ? Optional.empty() : restoredFrom.watermarkOf(partition));
      partitions.put(partition, new PartitionReading(partition, policy));
    }
  }

  @Override
  public boolean start() {
    Map<String, Object> config = source.consumerConfig();
    keys = source.keys().getDeserializer(config, true);
    values = source.values().getDeserializer(config, false);
    if (commits) {
      // A runner restores a reader from a mark it has finalized, or from a completed checkpoint:
      // what the mark holds has been processed. Its finalization may have reached the reader that
      // took it after that reader closed (the DirectRunner finalizes, then restores), so it is
      // committed here.
      toCommit.set(restoredFrom);
    }
    Consumer<byte[], byte[]> opened = source.consumers().apply(config);
    consumer = opened;
    opened.assign(List.copyOf(partitions.keySet()));
    for (PartitionReading partition : partitions.values()) {
      Optional<KafkaOffsets.PartitionOffset> mark =
          restoredFrom == null ? Optional.empty() : restoredFrom.of(partition.topicPartition);
      if (mark.isPresent()) {
        opened.seek(partition.topicPartition, mark.get().nextOffset());
        partition.nextOffset = mark.get().nextOffset();
      } else {
        // The group's committed offset, or where auto.offset.reset says: resolved now, so that
        // "latest" means the end as the reader starts.
        partition.nextOffset = opened.position(partition.topicPartition);
      }
    }
    probe =
        EndOffsetsProbe.start(
            source.consumers().apply(source.probeConfig()), List.copyOf(partitions.keySet()));
    return advance();
  }

  @Override
  public boolean advance() {
    commitFinalized();
    while (true) {
      if (records.hasNext()) {
        read(records.next());
        return true;
      }
      if (polledPartitions.hasNext()) {
        TopicPartition partition = polledPartitions.next();
        reading = partitions.get(partition);
        records = polled.records(partition).iterator();
        continue;
      }
      polled = consumer().poll(POLL);
      if (polled.isEmpty()) {
        return false;
      }
      polledPartitions = polled.partitions().iterator();
    }
  }

  private void read(ConsumerRecord<byte[], byte[]> raw) {
    PartitionReading partition = reading;
    K key = keys.deserialize(raw.topic(), raw.headers(), raw.key());
    V value = values.deserialize(raw.topic(), raw.headers(), raw.value());
    KafkaRecord<K, V> record =
        new KafkaRecord<>(
            raw.topic(),
            raw.partition(),
            raw.offset(),
            raw.timestamp(),
            timestampType(raw),
            raw.headers(),
            key,
            value);
    partition.nextOffset = raw.offset() + 1;
    current = record;
    currentTimestamp = partition.policy.getTimestampForRecord(partition.context(), record);
  }

  private static KafkaTimestampType timestampType(ConsumerRecord<?, ?> raw) {
    switch (raw.timestampType()) {
      case CREATE_TIME:
        return KafkaTimestampType.CREATE_TIME;
      case LOG_APPEND_TIME:
        return KafkaTimestampType.LOG_APPEND_TIME;
      default:
        return KafkaTimestampType.NO_TIMESTAMP_TYPE;
    }
  }

  @Override
  public KafkaRecord<K, V> getCurrent() {
    if (current == null) {
      throw new NoSuchElementException("no record read yet");
    }
    return current;
  }

  @Override
  public Instant getCurrentTimestamp() {
    if (current == null) {
      throw new NoSuchElementException("no record read yet");
    }
    return currentTimestamp;
  }

  /** The lowest of the partitions' watermarks. */
  @Override
  public Instant getWatermark() {
    Instant lowest = BoundedWindow.TIMESTAMP_MAX_VALUE;
    for (PartitionReading partition : partitions.values()) {
      Instant watermark = partition.policy.getWatermark(partition.context());
      partition.lastWatermark = watermark;
      if (watermark.isBefore(lowest)) {
        lowest = watermark;
      }
    }
    return lowest;
  }

  @Override
  public KafkaOffsets getCheckpointMark() {
    List<KafkaOffsets.PartitionOffset> marks = new ArrayList<>();
    for (PartitionReading partition : partitions.values()) {
      marks.add(
          new KafkaOffsets.PartitionOffset(
              partition.topicPartition.topic(),
              partition.topicPartition.partition(),
              partition.nextOffset,
              partition.lastWatermark.getMillis()));
    }
    return new KafkaOffsets(marks, commits ? this::finalized : null);
  }

  @Override
  public KafkaTopicSource<K, V> getCurrentSource() {
    return source;
  }

  /** A mark this reader took is finalized: its offsets are committed by the next read or close. */
  private void finalized(KafkaOffsets mark) {
    if (!closed) {
      toCommit.set(mark);
    }
  }

  /** Commits the offsets of the mark finalized last, if any, without waiting for the answer. */
  private void commitFinalized() {
    KafkaOffsets finalized = toCommit.getAndSet(null);
    if (finalized != null) {
      consumer()
          .commitAsync(
              offsets(finalized),
              (offsets, failure) -> {
                if (failure != null) {
                  LOG.warn("committing offsets {} failed: {}", offsets, failure.toString());
                }
              });
    }
  }

  private static Map<TopicPartition, OffsetAndMetadata> offsets(KafkaOffsets mark) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (KafkaOffsets.PartitionOffset partition : mark.partitions()) {
      offsets.put(partition.topicPartition(), new OffsetAndMetadata(partition.nextOffset()));
    }
    return offsets;
  }

  @Override
  public void close() {
    closed = true;
    if (probe != null) {
      probe.close();
    }
    if (consumer != null) {
      KafkaOffsets finalized = toCommit.getAndSet(null);
      try {
        if (finalized != null) {
          consumer.commitSync(offsets(finalized), CLOSE_TIMEOUT);
        }
      } catch (KafkaException e) {
        LOG.warn(
            "committing offsets of {} as the reader closed failed: {}", finalized, e.toString());
      } finally {
        consumer.close(CLOSE_TIMEOUT);
      }
    }
  }

  private Consumer<byte[], byte[]> consumer() {
    if (consumer == null) {
      throw new IllegalStateException("the reader has not started");
    }
    return consumer;
  }

  /** One partition: its policy, and the offset of its next record. */
  private final class PartitionReading {

    private final TopicPartition topicPartition;
    private final TimestampPolicy<K, V> policy;
    private final Backlog backlog = new Backlog();
    private long nextOffset;
    private Instant lastWatermark = BoundedWindow.TIMESTAMP_MIN_VALUE;

    PartitionReading(TopicPartition topicPartition, TimestampPolicy<K, V> policy) {
      this.topicPartition = topicPartition;
      this.policy = policy;
    }

    /** The backlog as measured last, for the policy. */
    TimestampPolicy.PartitionContext context() {
      backlog.measurement = probe == null ? null : probe.latest();
      return backlog;
    }

    /** The partition's backlog against one measurement of its end offset. */
    private final class Backlog extends TimestampPolicy.PartitionContext {

      private final Instant started = Instant.now();
      private EndOffsetsProbe.@Nullable Measurement measurement;

      @Override
      public long getMessageBacklog() {
        Long end = measurement == null ? null : measurement.endOffsets().get(topicPartition);
        return end == null ? BACKLOG_UNKNOWN : Math.max(0, end - nextOffset);
      }

      @Override
      public Instant getBacklogCheckTime() {
        return measurement == null ? started : measurement.checkedAt();
      }
    }
  }
}
