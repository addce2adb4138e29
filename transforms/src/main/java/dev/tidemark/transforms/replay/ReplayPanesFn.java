package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerMap;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Decides, for replayed records, every pane of every (key, window) from the watermark each record
 * met at its source, so a replay emits what a live run with the same arrival order would, on every
 * runner and at any parallelism. Input: {@code KV(key, records)}, the {@link WindowRecords} that
 * one batch of a recording adds to one of the key's windows ({@link GatherWindowRecordsFn}, which
 * also sends records whose window had expired to the late output, by the same rules).
 *
 * <h3>The rules (W = the record's arrival watermark, [start, end) its window)</h3>
 *
 * <ul>
 *   <li>{@code W < end}: on time; it is in the ON_TIME pane.
 *   <li>{@code end <= W <= end - 1 ms + allowedLateness}: late within the lateness; it adds one
 *       LATE pane, after the ON_TIME pane and after the late records that met a lower watermark (or
 *       the same one, earlier in the recording).
 *   <li>{@code W} beyond that: the window has expired; the record goes to the late output with W.
 *       The same test as {@link EventTimeWindowing#isExpired}.
 *   <li>Panes accumulate; the last pane of a window is {@code final}. A window with no late record
 *       within the lateness has exactly one pane, ON_TIME and final.
 *   <li>EARLY panes only by the idle flush: if {@code idleFlush} of processing time passes after a
 *       window's first unreported on-time record while the window is still open, it reports what it
 *       has, as {@code AfterProcessingTime.pastFirstElementInPane()} does in a live run. A replay
 *       faster than that emits none; a paced or stalled one does.
 * </ul>
 *
 * <h3>Why it is exact, and when panes are emitted</h3>
 *
 * <p>Which pane a record belongs to depends only on its own W, so it does not matter in which order
 * the runner delivers records to this step. What must hold is that a pane is not emitted before
 * every record that belongs to it has arrived. The replay source reports as its watermark the
 * arrival watermark of the next line it will read, so it passes a value X only after every line
 * with {@code W < X} has been emitted; runners deliver a source's records before the watermarks it
 * reports after them (Flink: in order on each channel, and a step's watermark is the minimum over
 * its channels; DirectRunner: a pending element holds its consumer's watermark). So when this
 * step's input watermark reaches X, every record with {@code W < X} is here. For that a record must
 * travel at the watermark it met: its element timestamp is W, not its event time (which the {@link
 * Event} carries). A record stamped with its event time would be behind the watermark when it is
 * out of order, and a record behind the watermark holds nothing: the DirectRunner's grouping in
 * front of a stateful step then lets the watermark overtake records late within the lateness, and
 * their windows would be reported twice. An event-time timer at {@code end - 1 ms + allowedLateness
 * + 1 ms} therefore fires only when every record of the window that is not expired is here: then
 * every pane is known, and so is which one is last. The panes of a window are emitted then, once
 * each. With no allowed lateness that is as soon as the window closes; with allowed lateness L, the
 * replay's event time must pass {@code end + L} first, which a replay does at the speed it reads.
 *
 * <p>State is released when a window's panes are emitted, so memory follows the windows open at one
 * time (those within {@code maxOutOfOrderness + size + allowedLateness} of the replay's watermark),
 * not the length of the recording. Once a key has no open window, it has no state and no timer.
 */
final class ReplayPanesFn<AccumT, OutputT>
    extends DoFn<KV<String, WindowRecords<AccumT>>, KV<String, KV<WindowPane, OutputT>>> {

  private static final Duration ONE_MILLI = Duration.millis(1);
  private static final String OPEN_WINDOWS = "openWindows";
  private static final String FLUSH_DUE = "flushDue";
  private static final String DEADLINE_TIMERS = "deadlines";
  private static final String FLUSH_TIMER = "idleFlush";

  @StateId(OPEN_WINDOWS)
  private final StateSpec<MapState<Instant, OpenWindow<AccumT>>> openWindowsSpec;

  @StateId(FLUSH_DUE)
  private final StateSpec<ValueState<Instant>> flushDueSpec = StateSpecs.value(InstantCoder.of());

  /** One event-time timer per open window, tagged with its start: when it closes, then expires. */
  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  @TimerId(FLUSH_TIMER)
  private final TimerSpec flushTimerSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  private final EventTimeWindowing windowing;
  private final CombineFn<KV<Integer, Event>, AccumT, OutputT> aggregate;

  ReplayPanesFn(
      EventTimeWindowing windowing,
      CombineFn<KV<Integer, Event>, AccumT, OutputT> aggregate,
      Coder<AccumT> accumulatorCoder) {
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.openWindowsSpec =
        StateSpecs.map(InstantCoder.of(), new OpenWindow.OpenWindowCoder<>(accumulatorCoder));
  }

  @ProcessElement
  public void processElement(
      @Element KV<String, WindowRecords<AccumT>> element,
      @StateId(OPEN_WINDOWS) MapState<Instant, OpenWindow<AccumT>> openWindows,
      @StateId(FLUSH_DUE) ValueState<Instant> flushDue,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerId(FLUSH_TIMER) Timer flushTimer) {
    WindowRecords<AccumT> records = element.getValue();
    @Nullable OpenWindow<AccumT> open = openWindows.get(records.windowStart).read();
    if (open == null) {
      open =
          new OpenWindow<>(new WindowRecords<>(records.windowStart, aggregate.createAccumulator()));
      IntervalWindow window = new IntervalWindow(records.windowStart, windowing.size());
      deadlines.set(tag(window), closesAt(window));
    }
    open.records.addAll(records, aggregate);
    if (records.onTimeRecords > 0 && !open.closed && open.flushDueMillis == OpenWindow.NO_FLUSH) {
      // A window with data reports within idleFlush of its first unreported record, even if the
      // replay stalls.
      open.flushDueMillis = Instant.now().plus(windowing.idleFlush()).getMillis();
      armFlush(new Instant(open.flushDueMillis), flushDue, flushTimer);
    }
    openWindows.put(records.windowStart, open);
  }

  /**
   * A window's deadline: when it closes, no EARLY pane comes any more, and the rest waits until it
   * expires (at once without allowed lateness); when it expires, its panes are emitted and its
   * state released. Only this window is read: the others of the key wait for their own timers, so a
   * deadline costs the same however many windows the key has open.
   */
  @OnTimerFamily(DEADLINE_TIMERS)
  public void onDeadline(
      @TimerId String tag,
      @Key String key,
      @StateId(OPEN_WINDOWS) MapState<Instant, OpenWindow<AccumT>> openWindows,
      @StateId(FLUSH_DUE) ValueState<Instant> flushDue,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerId(FLUSH_TIMER) Timer flushTimer,
      OutputReceiver<KV<String, KV<WindowPane, OutputT>>> out) {
    Instant start = new Instant(Long.parseLong(tag));
    @Nullable OpenWindow<AccumT> open = openWindows.get(start).read();
    if (open == null) {
      return;
    }
    IntervalWindow window = new IntervalWindow(start, windowing.size());
    if (open.closed || !expiresAt(window).isAfter(closesAt(window))) {
      emitPanes(key, window, open, out);
      openWindows.remove(start);
      if (openWindows.isEmpty().read()) {
        // A key with no open window keeps no state and no timer.
        flushDue.clear();
        flushTimer.clear();
      }
      return;
    }
    open.closed = true;
    open.flushDueMillis = OpenWindow.NO_FLUSH;
    openWindows.put(start, open);
    deadlines.set(tag, expiresAt(window));
  }

  @OnTimer(FLUSH_TIMER)
  public void onIdleFlush(
      @Key String key,
      @StateId(OPEN_WINDOWS) MapState<Instant, OpenWindow<AccumT>> openWindows,
      @StateId(FLUSH_DUE) ValueState<Instant> flushDue,
      @TimerId(FLUSH_TIMER) Timer flushTimer,
      OutputReceiver<KV<String, KV<WindowPane, OutputT>>> out) {
    @Nullable Instant due = flushDue.read();
    flushDue.clear();
    Instant now = Instant.now();
    // Runners also fire pending processing-time timers when the input ends, before they are due:
    // that is the end of the replay, not idleness, and the deadline timers report those windows.
    if (due == null || now.isBefore(due)) {
      return;
    }
    for (Map.Entry<Instant, OpenWindow<AccumT>> entry : entries(openWindows)) {
      OpenWindow<AccumT> open = entry.getValue();
      if (open.closed || open.flushDueMillis == OpenWindow.NO_FLUSH) {
        continue;
      }
      if (open.flushDueMillis <= now.getMillis()) {
        IntervalWindow window = new IntervalWindow(entry.getKey(), windowing.size());
        emit(key, window, Timing.EARLY, open.panesEmitted++, false, open.records.onTime, out);
        open.flushDueMillis = OpenWindow.NO_FLUSH;
        openWindows.put(entry.getKey(), open);
      } else {
        armFlush(new Instant(open.flushDueMillis), flushDue, flushTimer);
      }
    }
  }

  /** Makes the key's one flush timer fire at {@code due} unless it fires earlier already. */
  private static void armFlush(Instant due, ValueState<Instant> flushDue, Timer flushTimer) {
    @Nullable Instant armed = flushDue.read();
    if (armed == null || due.isBefore(armed)) {
      flushTimer.set(due);
      flushDue.write(due);
    }
  }

  /** The ON_TIME pane if any record was on time, then one LATE pane per late record; last final. */
  private void emitPanes(
      String key,
      IntervalWindow window,
      OpenWindow<AccumT> open,
      OutputReceiver<KV<String, KV<WindowPane, OutputT>>> out) {
    List<KV<Integer, Event>> late = new ArrayList<>(open.records.lateWithinLateness);
    late.sort(OpenWindow.ARRIVAL_ORDER);
    AccumT accumulated = open.records.onTime;
    long index = open.panesEmitted;
    if (open.records.onTimeRecords > 0) {
      emit(key, window, Timing.ON_TIME, index++, late.isEmpty(), accumulated, out);
    }
    for (int i = 0; i < late.size(); i++) {
      accumulated = aggregate.addInput(accumulated, late.get(i));
      emit(key, window, Timing.LATE, index++, i == late.size() - 1, accumulated, out);
    }
  }

  private void emit(
      String key,
      IntervalWindow window,
      Timing timing,
      long index,
      boolean isFinal,
      AccumT accumulated,
      OutputReceiver<KV<String, KV<WindowPane, OutputT>>> out) {
    WindowPane pane = new WindowPane(window.start(), window.end(), timing, index, isFinal);
    out.output(KV.of(key, KV.of(pane, aggregate.extractOutput(accumulated))));
  }

  /** The tag of {@code window}'s deadline timer: its start in epoch milliseconds. */
  private static String tag(IntervalWindow window) {
    return Long.toString(window.start().getMillis());
  }

  /** When every on-time record of {@code window} is here (the input watermark reached its end). */
  private static Instant closesAt(IntervalWindow window) {
    return Watermarks.earliest(window.end(), GlobalWindow.INSTANCE.maxTimestamp());
  }

  /** When every record of {@code window} that is not expired is here. */
  private Instant expiresAt(IntervalWindow window) {
    return Watermarks.earliest(
        Watermarks.plus(windowing.expiresAt(window), ONE_MILLI),
        GlobalWindow.INSTANCE.maxTimestamp());
  }

  /** A copy, so the state can be changed while going through it. */
  private static <AccumT> List<Map.Entry<Instant, OpenWindow<AccumT>>> entries(
      MapState<Instant, OpenWindow<AccumT>> openWindows) {
    List<Map.Entry<Instant, OpenWindow<AccumT>>> entries = new ArrayList<>();
    openWindows.entries().read().forEach(entries::add);
    return entries;
  }
}
