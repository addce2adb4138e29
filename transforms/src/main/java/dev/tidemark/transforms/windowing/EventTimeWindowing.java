package dev.tidemark.transforms.windowing;

import java.io.Serializable;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * tidemark's event-time windowing: which windows a record belongs to ({@link #fixed}, {@link
 * #sliding}, {@link #cumulating} or {@link #sessions}), the allowed lateness, the idle flush and
 * which panes come out, with the one definition of when a window has expired. The pane engine takes
 * it: live in {@link AggregatePerWindow} and {@link CountPerWindow}, on a recording in {@code
 * dev.tidemark.transforms.replay}; both decide panes with {@link PaneEngine}.
 *
 * <pre>{@code
 * EventTimeWindowing windowing =
 *     EventTimeWindowing.fixed(Duration.standardSeconds(5))
 *         .withAllowedLateness(Duration.standardMinutes(1))
 *         .withIdleFlush(Duration.standardSeconds(10));
 * }</pre>
 *
 * <p>The panes of a window (W is the watermark, {@code [start, end)} the window):
 *
 * <ul>
 *   <li>an ON_TIME pane when W passes the end of the window, always, even when it repeats an early
 *       pane, so every window says when it was complete;
 *   <li>an EARLY pane when a window with data has waited {@link #withIdleFlush idleFlush} of
 *       processing time since W last moved: a window with data produces a result even when the
 *       watermark is stuck for a reason no source policy can see (a stuck upstream, a silent side
 *       of a join), and a steady stream gets no EARLY pane;
 *   <li>a LATE pane for each record that comes after the end but within the allowed lateness, and a
 *       final pane when the window expires ({@link #isExpired}: its last millisecond plus the
 *       allowed lateness is behind W); a record for an expired window is never added to it, but
 *       goes to the late output with its window and the watermark it met;
 *   <li>accumulating panes: each holds everything so far, so a consumer keeps the latest pane per
 *       (key, window), the final one once it has come ({@link
 *       dev.tidemark.transforms.model.WindowResult} says why);
 *   <li>with {@link #withFinalPaneOnly}, each window's final pane alone.
 * </ul>
 *
 * <p>A sliding or cumulating window's panes are made from slices, each record added once ({@link
 * SlicedPanesFn}); a session's are its key's merged sessions ({@link SessionPanesFn}).
 */
public final class EventTimeWindowing implements Serializable {

  private static final long serialVersionUID = 1L;

  /** The early-firing delay unless {@link #withIdleFlush} says otherwise. */
  public static final Duration DEFAULT_IDLE_FLUSH = Duration.standardSeconds(10);

  private final WindowKind kind;
  private final Duration allowedLateness;
  private final Duration idleFlush;
  private final boolean finalPaneOnly;

  /** Assigns {@link #windowOf}; made once, not per record. */
  private final FixedWindows windows;

  /**
   * The latest last timestamp of a window that expires before the global window ends: {@link
   * #isExpired} runs once per record, so it works in epoch millis, with nothing to allocate.
   */
  private final long latestUncappedMaxTimestampMillis;

  private EventTimeWindowing(
      WindowKind kind, Duration allowedLateness, Duration idleFlush, boolean finalPaneOnly) {
    this.kind = kind;
    this.windows = FixedWindows.of(kind.size());
    this.allowedLateness = allowedLateness;
    this.idleFlush = idleFlush;
    this.finalPaneOnly = finalPaneOnly;
    this.latestUncappedMaxTimestampMillis =
        GlobalWindow.INSTANCE.maxTimestamp().getMillis() - allowedLateness.getMillis();
  }

  /** Tumbling windows of {@code size}, aligned to the epoch, no allowed lateness. */
  public static EventTimeWindowing fixed(Duration size) {
    return new EventTimeWindowing(
        WindowKind.tumbling(size), Duration.ZERO, DEFAULT_IDLE_FLUSH, false);
  }

  /**
   * Sliding windows of {@code size}, one starting every {@code every} (Flink SQL's {@code HOP}),
   * aligned to the epoch, no allowed lateness: a record is in {@code size / every} windows, each
   * judged on its own ({@link SlicedPanesFn}).
   */
  public static EventTimeWindowing sliding(Duration size, Duration every) {
    return new EventTimeWindowing(
        WindowKind.sliding(size, every), Duration.ZERO, DEFAULT_IDLE_FLUSH, false);
  }

  /**
   * Session windows (Flink SQL's {@code SESSION}): each record opens {@code [t, t + gap)}, and a
   * key's sessions that overlap or touch merge into one; no allowed lateness. A session closes when
   * the watermark passes its end and expires {@code allowedLateness} later; an expired session
   * never changes again ({@link SessionPanesFn}).
   */
  public static EventTimeWindowing sessions(Duration gap) {
    return new EventTimeWindowing(
        WindowKind.sessions(gap), Duration.ZERO, DEFAULT_IDLE_FLUSH, false);
  }

  /**
   * Cumulating windows (Flink SQL's {@code CUMULATE}): every {@code maxSize}, aligned to the epoch,
   * a window starts, and windows from that start end after each {@code step} up to {@code maxSize};
   * "today's running total, every hour" is {@code cumulating(1h, 1d)}. No allowed lateness.
   */
  public static EventTimeWindowing cumulating(Duration step, Duration maxSize) {
    return new EventTimeWindowing(
        WindowKind.cumulating(step, maxSize), Duration.ZERO, DEFAULT_IDLE_FLUSH, false);
  }

  /** How long after a window's end late data is still added to it (as LATE panes). */
  public EventTimeWindowing withAllowedLateness(Duration allowedLateness) {
    if (allowedLateness == null || allowedLateness.getMillis() < 0) {
      throw new IllegalArgumentException(
          "allowed lateness: " + allowedLateness + " is not allowed; use zero or more, e.g. 1m");
    }
    return new EventTimeWindowing(kind, allowedLateness, idleFlush, finalPaneOnly);
  }

  /**
   * How long an open window with data waits before an EARLY pane: this long of processing time
   * after the watermark last moved, so a steady stream gets no EARLY pane ({@link PaneEngine}).
   */
  public EventTimeWindowing withIdleFlush(Duration idleFlush) {
    if (idleFlush == null || idleFlush.getMillis() <= 0) {
      throw new IllegalArgumentException(
          "idle flush: " + idleFlush + " is not allowed; use a positive duration, e.g. 10s");
    }
    return new EventTimeWindowing(kind, allowedLateness, idleFlush, finalPaneOnly);
  }

  /**
   * Each window's final pane only, when the window expires (its end plus the allowed lateness),
   * with no EARLY pane: one result per (key, window), for a store downstream that appends.
   */
  public EventTimeWindowing withFinalPaneOnly() {
    return new EventTimeWindowing(kind, allowedLateness, idleFlush, true);
  }

  /** Whether only each window's final pane is emitted ({@link #withFinalPaneOnly}). */
  public boolean finalPaneOnly() {
    return finalPaneOnly;
  }

  /** Which windows a record belongs to. */
  public WindowKind kind() {
    return kind;
  }

  /** Whether each record belongs to exactly one window. */
  public boolean isTumbling() {
    return kind.shape() == WindowKind.Shape.TUMBLING;
  }

  /**
   * Refuses any kind but tumbling windows, for a step that has only those: {@code step} names it in
   * the message.
   *
   * @throws IllegalArgumentException for sliding or cumulating windows
   */
  public EventTimeWindowing requireTumbling(String step) {
    if (!isTumbling()) {
      throw new IllegalArgumentException(
          step + " takes tumbling windows only; it was given " + kind + " windows");
    }
    return this;
  }

  /** The window size; for cumulating windows, the largest one's. */
  public Duration size() {
    return kind.size();
  }

  public Duration allowedLateness() {
    return allowedLateness;
  }

  public Duration idleFlush() {
    return idleFlush;
  }

  /** The tumbling window an event at {@code eventTime} belongs to ({@link #requireTumbling}). */
  public IntervalWindow windowOf(Instant eventTime) {
    return windows.assignWindow(eventTime);
  }

  /**
   * The slice of {@code eventTime} ({@link WindowKind}): {@code previous}, the slice of the record
   * before, when the event time is in it; for tumbling windows, its window.
   */
  public IntervalWindow sliceOf(Instant eventTime, @Nullable IntervalWindow previous) {
    if (isTumbling()) {
      return windowOf(eventTime, previous);
    }
    return previous != null
            && !eventTime.isBefore(previous.start())
            && eventTime.isBefore(previous.end())
        ? previous
        : kind.sliceOf(eventTime);
  }

  /**
   * The window of {@code eventTime}: {@code previous}, the window of the record before, when the
   * event time is in it, as it mostly is within a batch; assigning a window makes three objects.
   */
  public IntervalWindow windowOf(Instant eventTime, @Nullable IntervalWindow previous) {
    return previous != null
            && !eventTime.isBefore(previous.start())
            && eventTime.isBefore(previous.end())
        ? previous
        : windowOf(eventTime);
  }

  /**
   * When {@code window} expires: its last timestamp plus the allowed lateness, capped at the global
   * window's end. The same computation as Beam's {@code LateDataUtils .garbageCollectionTime},
   * which the GroupByKey uses to drop late data.
   */
  public Instant expiresAt(IntervalWindow window) {
    return new Instant(expiresAtMillis(window));
  }

  /**
   * Whether {@code window} has expired under {@code watermark}: exactly the condition under which
   * Beam's GroupByKey would drop an element of it.
   */
  public boolean isExpired(IntervalWindow window, Instant watermark) {
    return expiresAtMillis(window) < watermark.getMillis();
  }

  /** {@link #expiresAt} in epoch millis. */
  private long expiresAtMillis(IntervalWindow window) {
    // The window's last timestamp, as IntervalWindow.maxTimestamp() computes it.
    long maxTimestamp = window.end().getMillis() - 1;
    return maxTimestamp > latestUncappedMaxTimestampMillis
        ? GlobalWindow.INSTANCE.maxTimestamp().getMillis()
        : maxTimestamp + allowedLateness.getMillis();
  }

  @Override
  public String toString() {
    return "EventTimeWindowing{"
        + kind
        + ", allowedLateness="
        + allowedLateness
        + ", idleFlush="
        + idleFlush
        + (finalPaneOnly ? ", finalPaneOnly" : "")
        + "}";
  }
}
