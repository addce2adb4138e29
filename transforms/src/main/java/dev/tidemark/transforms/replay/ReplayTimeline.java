package dev.tidemark.transforms.replay;

import java.util.List;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * What a replay of a recording does, record by record, without running it: made by {@link
 * Replay#explain}. Every pane, late record and dead letter here is one the replay's pipeline emits,
 * because both apply the same source, parser and {@link Arrival} rule.
 *
 * @param lines how many lines the recording has
 * @param windows every window that received a record, in order of its end
 * @param panes every pane of every (key, window), as the pipeline emits them
 * @param late the records whose window had expired at the watermark they met
 * @param deadLetters the lines that could not be used, with the reason
 * @param points lines to plot, every line or an even sample of them, with all late and dead ones
 * @param warnings settings the recording does not fit, each with the value that would fix it
 */
public record ReplayTimeline(
    long lines,
    List<WindowClose> windows,
    List<Pane> panes,
    List<LateLine> late,
    List<DeadLine> deadLetters,
    List<Point> points,
    List<String> warnings) {

  /** {@link WindowClose#closedAfterLine} of a window closed by the end of the recording. */
  public static final long AT_THE_END = -1;

  /**
   * When a window closed: after which line (whose event time moved the watermark to its end or
   * beyond), or {@link #AT_THE_END}; and how many records it had on time, over all keys.
   */
  public record WindowClose(
      Instant start, Instant end, long closedAfterLine, Instant watermarkAfter, long onTime) {}

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

    /** How far the watermark it met was past the end of its window. */
    public Duration pastWindowEnd() {
      return new Duration(windowEnd.minus(1), watermark);
    }
  }

  /** A line that could not be used, and why. */
  public record DeadLine(long line, String raw, String reason) {}

  /**
   * A line as a point: its event time (none for a dead letter without one), the watermark it met,
   * and what it was.
   */
  public record Point(long line, @Nullable Instant eventTime, Instant watermark, Kind kind) {}

  /** What a plotted line was. */
  public enum Kind {
    ON_TIME,
    LATE_WITHIN_LATENESS,
    LATE,
    DEAD
  }
}
