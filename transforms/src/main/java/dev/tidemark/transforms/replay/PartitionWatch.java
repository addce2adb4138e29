package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.replay.ReplayTimeline.HeldBack;
import dev.tidemark.transforms.watermark.RecordingWatermark;
import dev.tidemark.transforms.watermark.Watermarks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * What {@code explain} notes of a recording's partitions as {@link ExplainReplay} walks it: each
 * partition's watermark line, the stretches of lines in which one partition held the overall
 * watermark back by a window or more, and the partitions that never had a record.
 */
final class PartitionWatch {

  private final RecordingWatermark watermark;
  private final Duration maxOutOfOrderness;
  private final Duration windowSize;
  private final Map<String, PartitionTrack> partitions = new LinkedHashMap<>();
  private final List<HeldBack> heldBack = new ArrayList<>();
  private @Nullable HeldBack holding;

  /**
   * Watches {@code watermark}, the source's per-partition watermark, for windows of {@code
   * windowSize}; {@code known} are the partitions the source knows of, empty ones too.
   */
  PartitionWatch(
      RecordingWatermark watermark,
      Duration maxOutOfOrderness,
      Duration windowSize,
      List<String> known) {
    this.watermark = watermark;
    this.maxOutOfOrderness = maxOutOfOrderness;
    this.windowSize = windowSize;
    known.forEach(name -> partitions.put(name, track(name)));
  }

  /**
   * Follows the watermark of {@code partition} as the source does, after a record of {@code
   * eventTime} at {@code position}, and notes when one partition holds the overall watermark back
   * by a window or more.
   */
  void observe(long position, String partition, Instant eventTime) {
    watermark.observe(partition, eventTime);
    partitions
        .computeIfAbsent(partition, PartitionWatch::track)
        .moved(position, watermark.watermarkOf(partition));
    Optional<String> holder = watermark.holdingBack();
    Duration behind =
        holder.isEmpty()
            ? Duration.ZERO
            : new Duration(
                watermark.watermark(), Watermarks.behind(watermark.newest(), maxOutOfOrderness));
    if (holder.isEmpty() || behind.isShorterThan(windowSize)) {
      stopHolding();
    } else if (holding != null && holding.partition().equals(holder.get())) {
      holding =
          new HeldBack(
              holding.partition(),
              holding.fromLine(),
              position,
              behind.isLongerThan(holding.behindNewest()) ? behind : holding.behindNewest());
    } else {
      stopHolding();
      holding = new HeldBack(holder.get(), position, position, behind);
    }
  }

  /** Ends the stretch of lines a partition is holding the watermark back in, if one is. */
  void stopHolding() {
    if (holding != null && heldBack.size() < ExplainReplay.MAX_LISTED) {
      heldBack.add(holding);
    }
    holding = null;
  }

  /** Each partition's watermark, line by line. */
  List<ReplayTimeline.PartitionLine> lines() {
    return partitions.values().stream().map(PartitionTrack::line).toList();
  }

  /** The stretches of lines in which one partition held the watermark back by a window or more. */
  List<HeldBack> heldBack() {
    return heldBack;
  }

  /**
   * Kafka numbers a topic's partitions from 0: partitions below the highest one seen that never had
   * a record are empty partitions, which hold a plain Kafka source's watermark back forever.
   */
  Optional<ReplayWarning> emptyPartitionsWarning() {
    List<Integer> known = new ArrayList<>();
    List<Integer> withRecords = new ArrayList<>();
    for (PartitionTrack partition : partitions.values()) {
      if (!partition.name().matches("\\d{1,9}")) {
        return Optional.empty();
      }
      known.add(Integer.parseInt(partition.name()));
      if (partition.records() > 0) {
        withRecords.add(Integer.parseInt(partition.name()));
      }
    }
    if (withRecords.isEmpty()) {
      return Optional.empty();
    }
    int highest = known.stream().max(Integer::compare).orElseThrow();
    List<Integer> empty = new ArrayList<>();
    for (int number = 0; number <= highest && empty.size() < 50; number++) {
      if (!withRecords.contains(number)) {
        empty.add(number);
      }
    }
    if (empty.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ReplayWarning.EmptyPartitions(List.copyOf(empty), highest));
  }

  private static PartitionTrack track(String name) {
    return new PartitionTrack(name, ExplainReplay.MAX_POINTS);
  }
}
