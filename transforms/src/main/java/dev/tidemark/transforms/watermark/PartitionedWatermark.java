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
public final class PartitionedWatermark implements RecordingWatermark {

  private final Duration maxOutOfOrderness;
  private final long idleTimeoutMillis;

  /** Each partition's newest event time, in epoch millis, in a one-element array. */
  private final Map<String, long[]> newestPerPartition = new LinkedHashMap<>();

  private @Nullable Instant newest;

  /** The lowest newest event time of the partitions not quiet, when {@link #watermark} was set. */
  private long lowestActive = Long.MIN_VALUE;

  private Instant watermark = Watermarks.MIN;

  private PartitionedWatermark(Duration maxOutOfOrderness, Duration idleTimeout) {
    this.maxOutOfOrderness = maxOutOfOrderness;
    this.idleTimeoutMillis = idleTimeout.getMillis();
  }

  /**
   * A watermark {@code maxOutOfOrderness} behind, over partitions quiet after {@code idleTimeout}.
   */
  public static PartitionedWatermark of(Duration maxOutOfOrderness, Duration idleTimeout) {
    return new PartitionedWatermark(maxOutOfOrderness, idleTimeout);
  }

  /** Nothing to do: this watermark's clock is the newest event time, not the arrival time. */
  @Override
  public void arriveAt(Instant arrival) {}

  /**
   * A record of {@code partition} at the admitted {@code eventTime} was read. Called for every line
   * of a replay: it works in epoch millis and makes an {@link Instant} only when the watermark
   * moves.
   */
  @Override
  public void observe(String partition, Instant eventTime) {
    long time = eventTime.getMillis();
    long[] partitionNewest = newestPerPartition.get(partition);
    if (partitionNewest == null) {
      newestPerPartition.put(partition, new long[] {time});
    } else if (time > partitionNewest[0]) {
      partitionNewest[0] = time;
    }
    if (newest == null || time > newest.getMillis()) {
      newest = eventTime;
    }
    // One partition: its newest event time is the newest of all.
    long candidate = newestPerPartition.size() == 1 ? newest.getMillis() : lowest();
    if (candidate > lowestActive) {
      lowestActive = candidate;
      watermark =
          Watermarks.latest(
              watermark, Watermarks.behind(new Instant(candidate), maxOutOfOrderness));
    }
  }

  /** The lowest newest event time among the partitions that are not quiet. */
  private long lowest() {
    long newestMillis = newest.getMillis();
    long candidate = Long.MAX_VALUE;
    for (long[] partitionNewest : newestPerPartition.values()) {
      if (newestMillis - partitionNewest[0] <= idleTimeoutMillis) {
        candidate = Math.min(candidate, partitionNewest[0]);
      }
    }
    return candidate;
  }

  /** The overall watermark after the records observed; {@link Watermarks#MIN} before any. */
  @Override
  public Instant watermark() {
    return watermark;
  }

  /** The newest event time observed, over every partition; null before any. */
  @Override
  public @Nullable Instant newest() {
    return newest;
  }

  /** The watermark of {@code partition} alone; {@link Watermarks#MIN} before its first record. */
  @Override
  public Instant watermarkOf(String partition) {
    long[] partitionNewest = newestPerPartition.get(partition);
    return partitionNewest == null
        ? Watermarks.MIN
        : Watermarks.behind(new Instant(partitionNewest[0]), maxOutOfOrderness);
  }

  /** Each partition seen, in the order first seen, with its own watermark. */
  public Map<String, Instant> partitionWatermarks() {
    Map<String, Instant> watermarks = new LinkedHashMap<>();
    newestPerPartition.forEach(
        (partition, time) ->
            watermarks.put(partition, Watermarks.behind(new Instant(time[0]), maxOutOfOrderness)));
    return Collections.unmodifiableMap(watermarks);
  }

  /**
   * The partition that holds the overall watermark back right now: the one, not quiet, whose
   * watermark is the overall one, when another partition is ahead of it; empty otherwise.
   */
  @Override
  public Optional<String> holdingBack() {
    if (newest == null || newestPerPartition.size() < 2) {
      return Optional.empty();
    }
    Instant ahead = Watermarks.behind(newest, maxOutOfOrderness);
    for (Map.Entry<String, long[]> partition : newestPerPartition.entrySet()) {
      long partitionNewest = partition.getValue()[0];
      Instant partitionWatermark =
          Watermarks.behind(new Instant(partitionNewest), maxOutOfOrderness);
      if (!isQuiet(partitionNewest)
          && partitionWatermark.equals(watermark)
          && partitionWatermark.isBefore(ahead)) {
        return Optional.of(partition.getKey());
      }
    }
    return Optional.empty();
  }

  private boolean isQuiet(long partitionNewest) {
    return newest.getMillis() - partitionNewest > idleTimeoutMillis;
  }
}
