package dev.tidemark.transforms.io.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end offsets of a reader's partitions, measured once a second by a consumer of its own on a
 * thread of its own, as KafkaIO does: a broker that does not answer holds up the measurement, never
 * the reader. Each measurement is stamped with the moment it began, so that a record read after
 * that moment is never taken for backlog the measurement saw. While the broker does not answer, the
 * last measurement stays, with its old stamp: the timestamp policy sees the gap
 * (IdleAwareTimestampPolicy treats it as time the partition was out of sight).
 */
final class EndOffsetsProbe implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EndOffsetsProbe.class);

  static final Duration INTERVAL = Duration.ofSeconds(1);

  /** One measurement: each partition's end offset, and when it began. */
  record Measurement(Map<TopicPartition, Long> endOffsets, Instant checkedAt) {}

  private final Consumer<byte[], byte[]> consumer;
  private final List<TopicPartition> partitions;
  private final ScheduledExecutorService thread;
  private volatile @Nullable Measurement latest;

  private EndOffsetsProbe(Consumer<byte[], byte[]> consumer, List<TopicPartition> partitions) {
    this.consumer = consumer;
    this.partitions = List.copyOf(partitions);
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread probe = new Thread(task, "tidemark-kafka-end-offsets");
              probe.setDaemon(true);
              return probe;
            });
  }

  /** Measures {@code partitions} with {@code consumer} (which it owns) now, then every second. */
  static EndOffsetsProbe start(Consumer<byte[], byte[]> consumer, List<TopicPartition> partitions) {
    EndOffsetsProbe probe = new EndOffsetsProbe(consumer, partitions);
    probe.thread.scheduleWithFixedDelay(
        probe::measure, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    return probe;
  }

  /** The latest measurement; null until the first one is in. */
  @Nullable Measurement latest() {
    return latest;
  }

  private void measure() {
    Instant began = Instant.now();
    try {
      latest = new Measurement(consumer.endOffsets(partitions, INTERVAL), began);
    } catch (RuntimeException e) {
      // The broker did not answer in time (or refused): the last measurement stays, and ages. An
      // exception let out of here would end the measurements for good.
      LOG.debug("measuring the end offsets of {}: {}", partitions, e.toString());
    }
  }

  @Override
  public void close() {
    // The consumer is not thread-safe: it is closed on its own thread, after the last measurement.
    thread.execute(() -> consumer.close(INTERVAL));
    thread.shutdown();
    try {
      if (!thread.awaitTermination(2 * INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
