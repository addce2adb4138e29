package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.replay.ReplayWarning.AheadOfTheClock;
import dev.tidemark.transforms.replay.ReplayWarning.BeforeEarliestEventTime;
import dev.tidemark.transforms.replay.ReplayWarning.EventTimeJumps;
import dev.tidemark.transforms.replay.ReplayWarning.TooOutOfOrder;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * What in a recording does not fit the event-time settings, noticed line by line by {@link
 * ExplainReplay}, each with the value that would fix it: data more out of order than the bound (and
 * the bound that would have kept every record on time), event times that look like seconds or
 * placeholders, event times too far ahead of the clock, and jumps in event time far larger than a
 * window.
 */
final class OutOfPlace {

  /** A jump in event time this many windows long is worth a warning. */
  private static final long JUMP_IN_WINDOWS = 100;

  private final EventTimeWindowing windowing;
  private final Duration maxOutOfOrderness;
  private final Map<String, PartitionTimes> partitions = new HashMap<>();
  private long records;
  private long notOnTime;
  private long neededBoundMillis;
  private long maxBehindMillis;
  private long beforeFloor;
  private long firstBeforeFloorLine;
  private @Nullable String firstBeforeFloorReason;
  private long tooFarAhead;
  private long firstTooFarAheadLine;
  private @Nullable String firstTooFarAheadReason;
  private long jumps;
  private @Nullable EventTimeJumps firstJump;

  OutOfPlace(EventTimeWindowing windowing, Duration maxOutOfOrderness) {
    this.windowing = windowing;
    this.maxOutOfOrderness = maxOutOfOrderness;
  }

  /**
   * A record the replay admitted, at {@code line} of {@code partition}, with its event time and
   * window. Out-of-orderness and jumps are measured within the record's partition: each partition
   * has its own watermark.
   */
  void record(long line, String partition, Instant eventTime, IntervalWindow window) {
    records++;
    long millis = eventTime.getMillis();
    PartitionTimes times = partitions.computeIfAbsent(partition, name -> new PartitionTimes());
    @Nullable Instant maxEventTime = times.maxEventTime;
    @Nullable Instant previousEventTime = times.previousEventTime;
    if (maxEventTime != null) {
      // On time while maxEventTime - bound - 1 ms < end, that is while bound >= maxEventTime - end.
      long needed = maxEventTime.getMillis() - window.end().getMillis();
      if (needed > maxOutOfOrderness.getMillis()) {
        notOnTime++;
      }
      neededBoundMillis = Math.max(neededBoundMillis, needed);
      maxBehindMillis = Math.max(maxBehindMillis, maxEventTime.getMillis() - millis);
    }
    if (previousEventTime != null
        && Math.abs(millis - previousEventTime.getMillis())
            > JUMP_IN_WINDOWS * windowing.size().getMillis()
        && jumps++ == 0) {
      firstJump = new EventTimeJumps(JUMP_IN_WINDOWS, 0, line, previousEventTime, eventTime);
    }
    times.previousEventTime = eventTime;
    times.maxEventTime =
        maxEventTime == null || eventTime.isAfter(maxEventTime) ? eventTime : maxEventTime;
  }

  /** A line the replay could not use, with the reason. */
  void deadLetter(ArrivedLine line, String reason) {
    Event parsed = line.parsed();
    if (parsed == null) {
      return;
    }
    // Parsed, yet refused by the clock-skew guard: before its floor, or too far ahead.
    if (parsed.eventTime().isBefore(ClockSkewGuard.EARLIEST_EVENT_TIME)) {
      if (beforeFloor++ == 0) {
        firstBeforeFloorLine = line.position();
        firstBeforeFloorReason = reason;
      }
    } else if (tooFarAhead++ == 0) {
      firstTooFarAheadLine = line.position();
      firstTooFarAheadReason = reason;
    }
  }

  /** The warnings, at the end of the recording. */
  List<ReplayWarning> warnings() {
    List<ReplayWarning> warnings = new ArrayList<>();
    if (notOnTime > 0) {
      warnings.add(
          new TooOutOfOrder(
              notOnTime,
              records,
              Duration.millis(maxBehindMillis),
              !partitions.containsKey(""),
              maxOutOfOrderness,
              Duration.standardSeconds((neededBoundMillis + 999) / 1000)));
    }
    if (beforeFloor > 0) {
      warnings.add(
          new BeforeEarliestEventTime(beforeFloor, firstBeforeFloorLine, firstBeforeFloorReason));
    }
    if (tooFarAhead > 0) {
      warnings.add(new AheadOfTheClock(tooFarAhead, firstTooFarAheadLine, firstTooFarAheadReason));
    }
    if (firstJump != null) {
      warnings.add(
          new EventTimeJumps(
              firstJump.windows(), jumps, firstJump.firstLine(), firstJump.from(), firstJump.to()));
    }
    return warnings;
  }

  /** The newest and the previous event time of one partition. */
  private static final class PartitionTimes {
    @Nullable Instant maxEventTime;
    @Nullable Instant previousEventTime;
  }
}
