package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.io.LineOrigins;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * What a replay of a recording does, record by record, without running it: made by {@link
 * Replay#explain}. Every pane, late record and dead letter here is one the replay's pipeline emits,
 * because both apply the same source, parser and {@link dev.tidemark.transforms.windowing.Arrival}
 * rule.
 *
 * @param lines how many lines the recording has
 * @param windows every window that received a record, in order of its end; for sessions, every
 *     key's sessions, in the order they closed
 * @param merges for sessions, each record that merged two or more of its key's sessions
 * @param panes every pane of every (key, window), as the pipeline emits them
 * @param late the records whose window had expired at the watermark they met
 * @param deadLetters the lines that could not be used, with the reason
 * @param points lines to plot, in arrival order: every line, or an even sample of the on-time ones
 *     and every other line (up to a limit only a broken recording reaches)
 * @param recordsByKind how many records of each kind there were, plotted or not
 * @param partitions each partition the lines came from, in the order first seen, with its watermark
 *     line by line; one, named "", for a recording that is not partitioned
 * @param heldBack when one partition held the overall watermark back by a window or more
 * @param warnings what in the recording does not fit the settings, each with the value that would
 *     fix it
 * @param origins where each line came from, for a recording that knows (a snapshot of a Kafka
 *     topic); null for one that knows only the order of its lines
 */
public record ReplayTimeline(
    long lines,
    List<WindowClose> windows,
    List<SessionMerge> merges,
    List<Pane> panes,
    List<LateLine> late,
    List<DeadLine> deadLetters,
    List<Point> points,
    Map<Kind, Long> recordsByKind,
    List<PartitionLine> partitions,
    List<HeldBack> heldBack,
    List<ReplayWarning> warnings,
    @Nullable LineOrigins origins) {

  /** {@link WindowClose#closedAfterLine} of a window closed by the end of the recording. */
  public static final long AT_THE_END = -1;

  /** Whether the recording was replayed as several partitions ({@code Replay#withPartitions}). */
  public boolean isPartitioned() {
    return partitions.size() > 1 || (partitions.size() == 1 && !partitions.get(0).name().isEmpty());
  }

  /**
   * How many partitions the recording's topic has at least: one more than the highest partition
   * number seen when every name is a number (Kafka numbers them from 0), else the names seen.
   */
  public int partitionCount() {
    int highest = -1;
    for (PartitionLine partition : partitions) {
      if (!partition.name().matches("\\d{1,9}")) {
        return partitions.size();
      }
      highest = Math.max(highest, Integer.parseInt(partition.name()));
    }
    return highest + 1;
  }

  /**
   * How a person finds line {@code line} again: {@code line 17}, or where it is at its source, e.g.
   * {@code clicks-2@17}.
   */
  public String nameOf(long line) {
    return origins == null ? "line " + line : origins.nameOf(line);
  }

  /**
   * When a window closed: after which line, or {@link #AT_THE_END}; whether that line's event time
   * moved the watermark to its end or beyond, or the idle rule did, as the clock passed before the
   * next line arrived ({@code byIdleRule}, only for a recording that knows its arrival times); and
   * how many records it had on time, over all keys. A session is one key's, named by {@code
   * sessionKey}, and began with the record at {@code firstLine}; other windows have neither (null,
   * and -1). A session that a late record merged from closed ones is born closed, after that
   * record's line.
   */
  public record WindowClose(
      Instant start,
      Instant end,
      long closedAfterLine,
      boolean byIdleRule,
      Instant watermarkAfter,
      long onTime,
      @Nullable String sessionKey,
      long firstLine) {}

  /**
   * The record at {@code line} joined {@code merged}, two or more sessions of {@code key}, into the
   * session {@code into}.
   */
  public record SessionMerge(
      long line, String key, List<IntervalWindow> merged, IntervalWindow into) {}

  /** One pane of a key's window, with the number of records it counts. */
  public record Pane(
      String key,
      Instant windowStart,
      Instant windowEnd,
      Timing timing,
      long index,
      boolean isFinal,
      long count) {}

  /**
   * A record whose window had expired: it met {@code watermark}, that far past the window's end.
   */
  public record LateLine(
      long line,
      String key,
      Instant eventTime,
      Instant windowStart,
      Instant windowEnd,
      Instant watermark,
      String raw) {

    /**
     * How far behind the watermark it met its event time was: what a run's late record says as
     * {@code lateByMillis} ({@code Expired.lateBy()}).
     */
    public Duration lateBy() {
      return new Duration(eventTime, watermark);
    }

    /** How far the watermark it met was past the end of its window. */
    public Duration pastWindowEnd() {
      return new Duration(windowEnd.minus(1), watermark);
    }
  }

  /** A line that could not be used, and why. */
  public record DeadLine(long line, String raw, String reason) {}

  /** How many records there were of {@code kind}, plotted or not. */
  public long count(Kind kind) {
    return recordsByKind.getOrDefault(kind, 0L);
  }

  /**
   * A line as a point: its event time (none for a dead letter without one), the watermark it met,
   * what it was, its key (none for a dead letter) and its partition ("" when not partitioned).
   */
  public record Point(
      long line,
      @Nullable Instant eventTime,
      Instant watermark,
      Kind kind,
      @Nullable String key,
      String partition) {}

  /**
   * A partition of the recording: how many records it had (admitted ones, that moved its
   * watermark), and its watermark after each line that moved it (sampled evenly on long
   * recordings).
   */
  public record PartitionLine(String name, long records, List<Step> watermark) {}

  /** The watermark after line {@code line}. */
  public record Step(long line, Instant watermark) {}

  /**
   * Partition {@code partition} held the overall watermark back from line {@code fromLine} to line
   * {@code toLine}, at most {@code behindNewest} behind the watermark of the newest partition.
   */
  public record HeldBack(String partition, long fromLine, long toLine, Duration behindNewest) {}

  /** What a plotted line was. */
  public enum Kind {
    ON_TIME,
    LATE_WITHIN_LATENESS,
    LATE,
    DEAD
  }
}
