package dev.tidemark.transforms.watermark;

import dev.tidemark.transforms.watermark.IdleAwareWatermark.Activity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The live Kafka rule ({@link IdleAwareWatermark#emptyFollowsWallClock}, through an {@link
 * InputGroup} of every partition), replayed over a recording that knows when each record arrived:
 * the arrival times stand in for the wall clock. It is the rule tidemark's Kafka timestamp policy
 * applies to live partitions, fed by a recording instead of a consumer.
 *
 * <ul>
 *   <li>Each partition's watermark is {@code newest event time in it - maxOutOfOrderness - 1 ms}.
 *   <li>A partition that has had no record for {@code idleTimeout} of arrival time is idle and
 *       follows the lowest of the active ones; one that never had a record is empty and does the
 *       same from {@code idleTimeout} after the first arrival. When all are quiet, event time moves
 *       at the pace of the arrival clock from the last record.
 *   <li>The overall watermark is the lowest partition watermark, never past the arrival clock minus
 *       {@code maxOutOfOrderness}, and never moves backwards. The arrival clock never moves
 *       backwards either: Kafka's timestamps, set by producers, may.
 * </ul>
 *
 * <p>What it cannot know, and assumes: that the live reader kept up with the topic, so that a
 * partition is caught up whenever its next record has not arrived yet; and that one reader held
 * every partition. A live job that reads a backlog keeps every partition active until it catches
 * up, and one with several readers takes the lowest of their watermarks. Not thread-safe.
 */
public final class ArrivalClockWatermark implements RecordingWatermark {

  private final Duration maxOutOfOrderness;
  private final List<String> partitions;
  private final InputGroup<String> group;
  private final Map<String, Instant> partitionWatermarks = new LinkedHashMap<>();
  private @Nullable Instant now;
  private @Nullable Instant newest;
  private Instant watermark = Watermarks.MIN;

  private ArrivalClockWatermark(
      Duration maxOutOfOrderness, Duration idleTimeout, List<String> partitions) {
    this.maxOutOfOrderness = maxOutOfOrderness;
    this.partitions = List.copyOf(partitions);
    this.group =
        new InputGroup<>(IdleAwareWatermark.emptyFollowsWallClock(maxOutOfOrderness, idleTimeout));
    if (this.partitions.isEmpty()) {
      throw new IllegalArgumentException("partitions: a source has at least one partition");
    }
  }

  /**
   * The live rule over {@code partitions}, {@code maxOutOfOrderness} behind, idle after {@code
   * idleTimeout} without a record.
   */
  public static ArrivalClockWatermark of(
      Duration maxOutOfOrderness, Duration idleTimeout, List<String> partitions) {
    return new ArrivalClockWatermark(maxOutOfOrderness, idleTimeout, partitions);
  }

  @Override
  public void arriveAt(Instant arrival) {
    if (now == null) {
      // Every partition is assigned when the reader starts, the empty ones too.
      for (String partition : partitions) {
        group.join(partition, Optional.empty(), arrival);
      }
    }
    now = now == null ? arrival : Watermarks.latest(now, arrival);
    update();
  }

  @Override
  public void observe(String partition, Instant eventTime) {
    if (now == null) {
      throw new IllegalStateException("observe: call arriveAt with the record's arrival first");
    }
    if (!partitions.contains(partition)) {
      throw new IllegalArgumentException(
          "partition '" + partition + "' is not one of the source's " + partitions);
    }
    group.observe(partition, eventTime, now);
    newest = newest == null ? eventTime : Watermarks.latest(newest, eventTime);
    update();
  }

  /** Asks every partition for its watermark at the arrival clock, as the live reader does. */
  private void update() {
    Instant lowest = Watermarks.MAX;
    for (String partition : partitions) {
      // Caught up: the next record of every partition has not arrived yet.
      Instant partitionWatermark = group.watermark(partition, now, true);
      partitionWatermarks.put(partition, partitionWatermark);
      lowest = Watermarks.earliest(lowest, partitionWatermark);
    }
    watermark = Watermarks.latest(watermark, lowest);
  }

  @Override
  public Instant watermark() {
    return watermark;
  }

  @Override
  public @Nullable Instant newest() {
    return newest;
  }

  @Override
  public Instant watermarkOf(String partition) {
    return partitionWatermarks.getOrDefault(partition, Watermarks.MIN);
  }

  @Override
  public Optional<String> holdingBack() {
    if (newest == null || partitions.size() < 2) {
      return Optional.empty();
    }
    Instant ahead = Watermarks.behind(newest, maxOutOfOrderness);
    for (String partition : partitions) {
      if (group.activity(partition) == Activity.ACTIVE
          && watermarkOf(partition).equals(watermark)
          && watermark.isBefore(ahead)) {
        return Optional.of(partition);
      }
    }
    return Optional.empty();
  }
}
