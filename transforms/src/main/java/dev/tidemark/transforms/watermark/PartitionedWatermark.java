package dev.tidemark.transforms.watermark;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A replay's watermark over the partitions its records were recorded from, with the rule tidemark's
 * Kafka policy applies to live partitions ({@code IdleAwareTimestampPolicy}). Written by hand: the
 * rule lives in Kafka readers and watermark estimators, none of which can be fed a recording line
 * by line.
 *
 * <ul>
 *   <li>Each partition's watermark is {@code newest event time in it - maxOutOfOrderness - 1 ms}.
 *   <li>A recording has no wall clock; its clock is the newest event time read so far, over every
 *       partition. A partition whose newest event time is more than {@code idleTimeout} behind that
 *       clock is quiet, and does not hold the watermark back. A partition not seen yet holds
 *       nothing back either: it is an empty partition.
 *   <li>The overall watermark is the lowest watermark of the partitions that are not quiet, and
 *       never moves backwards (a quiet partition that wakes up behind it does not pull it back: its
 *       records are late, as they would be live).
 * </ul>
 *
 * <p>With a single partition this is the plain bounded-out-of-orderness watermark. One instance
 * follows one replay, line by line: {@link #observe} each admitted event time, then read {@link
 * #watermark}. Not thread-safe.
 */
public final class PartitionedWatermark {

  private final Duration maxOutOfOrderness;
  private final Duration idleTimeout;
  private final Map<String, Instant> newestPerPartition = new LinkedHashMap<>();
  private @Nullable Instant newest;
  private Instant watermark = Watermarks.MIN;

  private PartitionedWatermark(Duration maxOutOfOrderness, Duration idleTimeout) {
    this.maxOutOfOrderness = maxOutOfOrderness;
    this.idleTimeout = idleTimeout;
  }

  /**
   * A watermark {@code maxOutOfOrderness} behind, over partitions quiet after {@code idleTimeout}.
   */
  public static PartitionedWatermark of(Duration maxOutOfOrderness, Duration idleTimeout) {
    return new PartitionedWatermark(maxOutOfOrderness, idleTimeout);
  }

  /** A record of {@code partition} at the admitted {@code eventTime} was read. */
  public void observe(String partition, Instant eventTime) {
    Instant previous = newestPerPartition.get(partition);
    Instant partitionNewest = previous == null ? eventTime : Watermarks.latest(previous, eventTime);
    newestPerPartition.put(partition, partitionNewest);
    newest = newest == null ? eventTime : Watermarks.latest(newest, eventTime);
    Instant candidate = Watermarks.MAX;
    for (Instant partitionTime : newestPerPartition.values()) {
      if (!isQuiet(partitionTime)) {
        candidate = Watermarks.earliest(candidate, partitionTime);
      }
    }
    watermark = Watermarks.latest(watermark, Watermarks.behind(candidate, maxOutOfOrderness));
  }

  /** The overall watermark after the records observed; {@link Watermarks#MIN} before any. */
  public Instant watermark() {
    return watermark;
  }

  /** The newest event time observed, over every partition; null before any. */
  public @Nullable Instant newest() {
    return newest;
  }

  /** The watermark of {@code partition} alone; {@link Watermarks#MIN} before its first record. */
  public Instant watermarkOf(String partition) {
    Instant partitionNewest = newestPerPartition.get(partition);
    return partitionNewest == null
        ? Watermarks.MIN
        : Watermarks.behind(partitionNewest, maxOutOfOrderness);
  }

  /** Each partition seen, in the order first seen, with its own watermark. */
  public Map<String, Instant> partitionWatermarks() {
    Map<String, Instant> watermarks = new LinkedHashMap<>();
    newestPerPartition.forEach(
        (partition, time) -> watermarks.put(partition, Watermarks.behind(time, maxOutOfOrderness)));
    return Collections.unmodifiableMap(watermarks);
  }

  /**
   * The partition that holds the overall watermark back right now: the one, not quiet, whose
   * watermark is the overall one, when another partition is ahead of it; empty otherwise.
   */
  public Optional<String> holdingBack() {
    if (newest == null || newestPerPartition.size() < 2) {
      return Optional.empty();
    }
    Instant ahead = Watermarks.behind(newest, maxOutOfOrderness);
    for (Map.Entry<String, Instant> partition : newestPerPartition.entrySet()) {
      Instant partitionWatermark = Watermarks.behind(partition.getValue(), maxOutOfOrderness);
      if (!isQuiet(partition.getValue())
          && partitionWatermark.equals(watermark)
          && partitionWatermark.isBefore(ahead)) {
        return Optional.of(partition.getKey());
      }
    }
    return Optional.empty();
  }

  private boolean isQuiet(Instant partitionNewest) {
    return new Duration(partitionNewest, newest).isLongerThan(idleTimeout);
  }
}
