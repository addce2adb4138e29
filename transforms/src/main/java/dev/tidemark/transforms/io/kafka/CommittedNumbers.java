package dev.tidemark.transforms.io.kafka;

import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Which numbers of one run's shard are in Kafka: every number below {@link #below}, and some ranges
 * above it. The exact set, not a high-water mark, because a runner may hand a shard its records out
 * of number order.
 *
 * <p>Beam's FlinkRunner (2.70) does, for a step that requires stable input. It keeps that step's
 * records in {@code numConcurrentCheckpoints + 1} buffers, used in turn, one per checkpoint. A
 * checkpoint the step took part in that then never completed, or whose completion reaches the step
 * after the next checkpoint's barrier, leaves its buffer unacknowledged. The turn comes back to
 * that buffer, and later records join the earlier ones in it. The next completion then empties the
 * buffers oldest checkpoint first: records numbered 100 to 120 can come before records 80 to 99. A
 * high-water mark set at 121 would skip 80 to 99 as written when they never were.
 *
 * <p>Stored in the shard's marker: the committed offset is {@link #below}, its metadata the run id,
 * then the ranges, e.g. {@code RUN 130-140,150-152} (each {@code from-to} with {@code to}
 * exclusive). Mutable, not thread-safe: one {@link ShardProducer} owns it. Written by hand: Kafka
 * clients have no set of numbers that fits an offset's metadata.
 */
final class CommittedNumbers {

  /**
   * The longest metadata the marker may carry: the broker's {@code offset.metadata.max.bytes} is
   * 4096 by default.
   */
  static final int MAX_METADATA_CHARS = 4096;

  private final String runId;

  /** Every number below this is committed. */
  private long below;

  /** Committed ranges above {@link #below}: from (inclusive) to to (exclusive), apart, in order. */
  private final TreeMap<Long, Long> ranges = new TreeMap<>();

  private CommittedNumbers(String runId, long below) {
    this.runId = runId;
    this.below = below;
  }

  /** None of {@code runId}'s numbers. */
  static CommittedNumbers none(String runId) {
    return new CommittedNumbers(runId, 0);
  }

  /**
   * What {@code marker} says of {@code runId}'s numbers: nothing when there is no marker, or when
   * it is another run's.
   */
  static CommittedNumbers of(String runId, @Nullable OffsetAndMetadata marker) {
    if (marker == null) {
      return none(runId);
    }
    String metadata = marker.metadata();
    int space = metadata.indexOf(' ');
    String markerRun = space < 0 ? metadata : metadata.substring(0, space);
    if (!runId.equals(markerRun)) {
      return none(runId);
    }
    CommittedNumbers numbers = new CommittedNumbers(runId, marker.offset());
    if (space >= 0) {
      for (String range : metadata.substring(space + 1).split(",")) {
        int dash = range.indexOf('-');
        numbers.ranges.put(
            Long.parseLong(range.substring(0, dash)), Long.parseLong(range.substring(dash + 1)));
      }
    }
    return numbers;
  }

  /** Whether {@code number} is in. */
  boolean contains(long number) {
    if (number < below) {
      return true;
    }
    Map.Entry<Long, Long> range = ranges.floorEntry(number);
    return range != null && number < range.getValue();
  }

  /** Adds {@code number}, joining it to the ranges or to {@link #below} it touches. */
  void add(long number) {
    if (contains(number)) {
      return;
    }
    long from = number;
    long to = number + 1;
    Map.Entry<Long, Long> before = ranges.floorEntry(number);
    if (before != null && before.getValue() == number) {
      from = before.getKey();
      ranges.remove(from);
    }
    Long after = ranges.get(to);
    if (after != null) {
      ranges.remove(to);
      to = after;
    }
    if (from == below) {
      below = to;
    } else {
      ranges.put(from, to);
    }
  }

  /** The lowest number not in: every number below it is. */
  long below() {
    return below;
  }

  /** Whether no number is in. */
  boolean isEmpty() {
    return below == 0 && ranges.isEmpty();
  }

  /** The numbers above {@link #below} that are in, as {@code from-to} ranges; empty if none. */
  private String rangesText() {
    StringBuilder text = new StringBuilder();
    ranges.forEach(
        (from, to) ->
            text.append(text.length() == 0 ? "" : ",").append(from).append('-').append(to));
    return text.toString();
  }

  /** The marker that says exactly this: {@link #below} as its offset, run id and ranges after. */
  OffsetAndMetadata marker() {
    String metadata = ranges.isEmpty() ? runId : runId + " " + rangesText();
    if (metadata.length() > MAX_METADATA_CHARS) {
      throw new IllegalStateException(
          "the records of run "
              + runId
              + " were handed over so far out of order that the numbers written no longer fit a"
              + " marker ("
              + metadata.length()
              + " characters, at most "
              + MAX_METADATA_CHARS
              + "): written below "
              + below
              + " and "
              + ranges.size()
              + " ranges above it");
    }
    return new OffsetAndMetadata(below, metadata);
  }

  @Override
  public String toString() {
    return "below " + below + (ranges.isEmpty() ? "" : ", and " + rangesText());
  }
}
