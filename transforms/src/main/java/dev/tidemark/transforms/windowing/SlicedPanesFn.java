package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.watermark.Watermarks;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
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
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The stateful step of {@link AggregatePerWindow} for sliding and cumulating windows, where a
 * record belongs to several windows: it keeps one accumulator per slice ({@link WindowKind}) and
 * merges a window's slices whenever {@link PaneEngine} decides one of its panes, so a record is
 * aggregated once, not once per window, and a key's state grows with its open slices and windows,
 * never with windows times records. The pane rules are the engine's, applied to each window on its
 * own.
 *
 * <h2>What it keeps per key</h2>
 *
 * <ul>
 *   <li>{@code slices}: slice start to {@link SliceState}. A slice goes when the last window that
 *       holds it has given its final pane.
 *   <li>{@code windows}: window end to the window's {@link WindowState}, from the first time the
 *       engine decides a pane of it until its final pane; its aggregate is filled from the slices
 *       each time (a window is named by its end: cumulating windows share their starts).
 *   <li>{@code progress}: the latest watermark at which a deadline of the key was decided, and the
 *       end of the latest window that gave its final pane. Windows of one kind expire in the order
 *       of their ends, so a window that ends at or before the second is done.
 *   <li>One event-time timer per window with records, tagged with its end (its close, then its
 *       expiry), and one processing-time timer per key for the idle flush.
 * </ul>
 *
 * <h2>A record, judged window by window</h2>
 *
 * <p>A record is judged by the step's input watermark, or by the key's latest decided watermark if
 * that is later (after a restore, Flink starts the input watermark again from the minimum; a window
 * that closed before the stop must stay closed). First, each of its windows whose deadline that
 * watermark has reached but whose timer has not fired yet is decided, so a record never joins a
 * pane that should have come without it. Then, for each of its windows: on time, it will be in the
 * window's next pane; late within the lateness, the window gives a LATE pane with it now; expired,
 * it missed the window. A record that missed every window goes to the expired output; one that
 * missed some goes there once too, naming the latest window it missed (every earlier window of the
 * record missed it as well), and is counted in the rest, so each (record, window) pair ends in
 * exactly one place: the window's final pane or the late line.
 *
 * <h2>Windows are done in the order of their ends</h2>
 *
 * <p>That order is what lets one instant per key ({@code doneThrough}) say which windows are done,
 * so a record that comes into a slice later never reaches a window that gave its final pane. So a
 * deadline is judged at its own instant, not at the watermark that may have jumped past it (timers
 * fire in the order of their instants): a window whose close and expiry the watermark passes at
 * once gives an ON_TIME pane and then a final LATE pane with the same value, where a tumbling
 * window gives one final ON_TIME pane. A record that finds a window of its own expired but not yet
 * done first gives a final pane to every earlier window of the key that is not done, then to that
 * one; an expired window that holds no record is done too.
 *
 * <h2>The idle flush</h2>
 *
 * <p>As for tumbling windows ({@link PaneEngine}), with the key as the unit: {@code idleFlush}
 * after the first record the key's open windows have not reported, and after the input watermark
 * last moved, every open window that holds such a record gives an EARLY pane.
 */
final class SlicedPanesFn<K, V, AccumT, OutputT, PaneT, ExpiredT>
    extends DoFn<KV<K, Contribution<V, AccumT>>, PaneT> {

  private static final String SLICES = "slices";
  private static final String WINDOWS = "windows";
  private static final String PROGRESS = "progress";
  private static final String FLUSH_DUE = "flushDue";
  private static final String DEADLINE_TIMERS = "deadlines";
  private static final String FLUSH_TIMER = "idleFlush";

  @StateId(SLICES)
  private final StateSpec<MapState<Instant, SliceState<AccumT>>> slicesSpec;

  @StateId(WINDOWS)
  private final StateSpec<MapState<Instant, WindowState<V, AccumT>>> windowsSpec;

  /** The key's latest decided watermark, and the end of its latest window that is done. */
  @StateId(PROGRESS)
  private final StateSpec<ValueState<KV<Instant, Instant>>> progressSpec =
      StateSpecs.value(KvCoder.of(InstantCoder.of(), InstantCoder.of()));

  /** When the key's idle flush is due, in wall-clock epoch millis, while one is. */
  @StateId(FLUSH_DUE)
  private final StateSpec<ValueState<Long>> flushDueSpec = StateSpecs.value(VarLongCoder.of());

  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  @TimerId(FLUSH_TIMER)
  private final TimerSpec flushTimerSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  private final Counter expiredRecords = TidemarkMetrics.lateRecords();
  private final Counter partlyExpiredRecords = TidemarkMetrics.partlyLateRecords();
  private final EventTimeWindowing windowing;
  private final WindowKind kind;
  private final CombineFn<V, AccumT, OutputT> aggregate;
  private final Coder<AccumT> accumulatorCoder;
  private final PaneEngine<V, AccumT, OutputT> engine;
  private final PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs;
  private transient WatermarkProgress watermarkProgress;

  SlicedPanesFn(
      EventTimeWindowing windowing,
      CombineFn<V, AccumT, OutputT> aggregate,
      Coder<V> valueCoder,
      Coder<AccumT> accumulatorCoder,
      PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    this.windowing = windowing;
    this.kind = windowing.kind();
    this.aggregate = aggregate;
    this.accumulatorCoder = accumulatorCoder;
    this.engine = PaneEngine.live(windowing, aggregate);
    this.outputs = outputs;
    this.slicesSpec =
        StateSpecs.map(InstantCoder.of(), new SliceState.SliceStateCoder<>(accumulatorCoder));
    this.windowsSpec =
        StateSpecs.map(
            InstantCoder.of(), WindowState.WindowStateCoder.of(valueCoder, accumulatorCoder));
  }

  @Setup
  public void setup() {
    watermarkProgress = new WatermarkProgress();
  }

  /** The slices and windows of {@code key}, as this call sees them. */
  private KeySlices<V, AccumT, OutputT> keyOf(
      K key,
      MapState<Instant, SliceState<AccumT>> slices,
      MapState<Instant, WindowState<V, AccumT>> windows,
      ValueState<KV<Instant, Instant>> progress,
      TimerMap deadlines,
      Clock clock,
      MultiOutputReceiver out) {
    return new KeySlices<>(
        kind,
        aggregate,
        accumulatorCoder,
        engine.withClock(clock),
        slices,
        windows,
        progress.read(),
        deadlines,
        pane -> out.get(outputs.panes()).output(outputs.pane(key, pane.pane(), pane.value())));
  }

  @ProcessElement
  public void processElement(
      @Element KV<K, Contribution<V, AccumT>> element,
      @Timestamp Instant eventTime,
      @StateId(SLICES) MapState<Instant, SliceState<AccumT>> slices,
      @StateId(WINDOWS) MapState<Instant, WindowState<V, AccumT>> windows,
      @StateId(PROGRESS) ValueState<KV<Instant, Instant>> progress,
      @StateId(FLUSH_DUE) ValueState<Long> flushDue,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerId(FLUSH_TIMER) Timer flushTimer,
      MultiOutputReceiver out) {
    IntervalWindow slice = kind.sliceOf(eventTime);
    // This step's input watermark: for an event-time timer the "current relative time" is
    // exactly that.
    Instant inputWatermark =
        deadlines.get(KeyedPaneState.tag(slice.end())).getCurrentRelativeTime();
    Clock clock = new RunnerClock(flushTimer);
    watermarkProgress.observe(inputWatermark, clock);
    KeySlices<V, AccumT, OutputT> key =
        keyOf(element.getKey(), slices, windows, progress, deadlines, clock, out);
    Contribution<V, AccumT> contribution = element.getValue();
    // A partial needs no look at what the key decided: its source's restored bound proves it on
    // time.
    Instant watermark =
        contribution.isPartial()
            ? inputWatermark
            : Watermarks.latest(inputWatermark, key.decidedThrough);
    List<IntervalWindow> windowsOfRecord = kind.windowsOfSlice(slice.start());
    for (IntervalWindow window : windowsOfRecord) {
      // A timer due at this watermark may not have fired yet: its panes come first, and a window
      // the record missed gives its final pane before the record joins a slice it shares.
      if (key.isDone(window) || watermark.isBefore(window.end())) {
        continue;
      }
      if (engine.arrival(window, watermark) == Arrival.EXPIRED) {
        key.finish(window, watermark);
      } else {
        key.decide(window, watermark);
      }
    }
    KeySlices.Verdicts verdicts = key.judge(windowsOfRecord, watermark);
    if (contribution.isPartial() && !verdicts.allOnTime()) {
      throw new IllegalStateException(
          String.format(
              "%d records aggregated before the shuffle reached windows %s at watermark %s,"
                  + " after the end of one: the step that aggregated them had a wrong watermark"
                  + " bound, and they cannot be captured one by one",
              contribution.records(), windowsOfRecord, watermark));
    }
    if (verdicts.lastMissed != null) {
      expiredRecords.inc();
      if (verdicts.missedAll()) {
        out.get(outputs.expired())
            .output(
                outputs.expired(
                    element.getKey(),
                    new Expired<>(
                        contribution.value(), eventTime, verdicts.lastMissed, watermark)));
        if (key.progressMoved()) {
          progress.write(key.progress());
        }
        return;
      }
      partlyExpiredRecords.inc();
      out.get(outputs.expired())
          .output(
              outputs.expired(
                  element.getKey(),
                  new Expired<>(contribution.value(), eventTime, verdicts.lastMissed, watermark)));
    }
    for (IntervalWindow window : verdicts.lateWithinLateness) {
      // The window's state before the record joins its slice; the engine adds it.
      WindowState<V, AccumT> state = key.stateOf(window);
      key.emit(key.engine.addLateWithinLateness(state, contribution.value()));
      key.store(state);
      // The record may be the window's first: its expiry gives the final pane.
      deadlines.set(KeyedPaneState.tag(window.end()), key.cappedDeadline(state));
    }
    @Nullable SliceState<AccumT> sliceState = slices.get(slice.start()).read();
    if (sliceState == null) {
      sliceState = new SliceState<>(aggregate.createAccumulator(), 0, false);
      for (IntervalWindow window : windowsOfRecord) {
        // An open window's deadline is its close; the others have theirs since they were decided.
        if (window.end().isAfter(watermark)) {
          deadlines.set(
              KeyedPaneState.tag(window.end()),
              Watermarks.earliest(window.end(), GlobalWindow.INSTANCE.maxTimestamp()));
        }
      }
    }
    if (contribution.isPartial()) {
      sliceState.accumulated =
          aggregate.mergeAccumulators(List.of(sliceState.accumulated, contribution.partial()));
    } else {
      sliceState.accumulated = aggregate.addInput(sliceState.accumulated, contribution.value());
    }
    sliceState.records += contribution.records();
    if (verdicts.onTime > 0 && !windowing.finalPaneOnly()) {
      sliceState.unreported = true;
      if (flushDue.read() == null) {
        // The key's open windows report within idleFlush of their first unreported record,
        // whatever the watermark does.
        long due = clock.millis() + windowing.idleFlush().getMillis();
        flushDue.write(due);
        flushTimer.set(new Instant(due));
      }
    }
    slices.put(slice.start(), sliceState);
    if (key.progressMoved()) {
      progress.write(key.progress());
    }
  }

  /**
   * A window's deadline: when it closes, its ON_TIME pane; when it expires, its final pane, and its
   * state, its timers and the slices no later window holds go.
   */
  @OnTimerFamily(DEADLINE_TIMERS)
  public void onDeadline(
      @TimerId String tag,
      @Key K key,
      @Timestamp Instant deadline,
      @StateId(SLICES) MapState<Instant, SliceState<AccumT>> slices,
      @StateId(WINDOWS) MapState<Instant, WindowState<V, AccumT>> windows,
      @StateId(PROGRESS) ValueState<KV<Instant, Instant>> progress,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerId(FLUSH_TIMER) Timer flushTimer,
      MultiOutputReceiver out) {
    IntervalWindow window = kind.windowEndingAt(KeyedPaneState.windowStartOf(tag));
    Instant inputWatermark = deadlines.get(tag).getCurrentRelativeTime();
    Clock clock = new RunnerClock(flushTimer);
    watermarkProgress.observe(inputWatermark, clock);
    KeySlices<V, AccumT, OutputT> keyState =
        keyOf(key, slices, windows, progress, deadlines, clock, out);
    if (keyState.isDone(window)) {
      return;
    }
    // Judged at the deadline even when the watermark has jumped past it: timers fire in the order
    // of their deadlines, so windows are done in the order of their ends.
    keyState.decide(window, deadline);
    if (keyState.progressMoved()) {
      progress.write(keyState.progress());
    }
  }

  /**
   * The key's idle flush: an EARLY pane of every open window that holds records it has not
   * reported, once the flush is due by the runner's clock and the watermark's progress ({@link
   * PaneEngine#onClock}); a flush that the watermark put off is set again.
   */
  @OnTimer(FLUSH_TIMER)
  public void onIdleFlush(
      @Key K key,
      @StateId(SLICES) MapState<Instant, SliceState<AccumT>> slices,
      @StateId(WINDOWS) MapState<Instant, WindowState<V, AccumT>> windows,
      @StateId(PROGRESS) ValueState<KV<Instant, Instant>> progress,
      @StateId(FLUSH_DUE) ValueState<Long> flushDue,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerId(FLUSH_TIMER) Timer flushTimer,
      MultiOutputReceiver out) {
    @Nullable Long due = flushDue.read();
    if (due == null) {
      return;
    }
    Clock clock = new RunnerClock(flushTimer);
    Instant inputWatermark = deadlines.get(FLUSH_TIMER).getCurrentRelativeTime();
    watermarkProgress.observe(inputWatermark, clock);
    long dueNow =
        Math.max(due, watermarkProgress.movedAtMillis() + windowing.idleFlush().getMillis());
    if (dueNow > clock.millis()) {
      flushDue.write(dueNow);
      flushTimer.set(new Instant(dueNow));
      return;
    }
    flushDue.clear();
    KeySlices<V, AccumT, OutputT> keyState =
        keyOf(key, slices, windows, progress, deadlines, clock, out);
    Map<Instant, IntervalWindow> unreported = new TreeMap<>();
    for (Map.Entry<Instant, SliceState<AccumT>> entry : slices.entries().read()) {
      SliceState<AccumT> slice = entry.getValue();
      if (!slice.unreported) {
        continue;
      }
      for (IntervalWindow window : kind.windowsOfSlice(entry.getKey())) {
        unreported.put(window.end(), window);
      }
      slice.unreported = false;
      slices.put(entry.getKey(), slice);
    }
    for (IntervalWindow window : unreported.values()) {
      if (keyState.isDone(window)) {
        continue;
      }
      WindowState<V, AccumT> state = keyState.stateOf(window);
      List<PaneEngine.Pane<OutputT>> early =
          keyState.engine.onKeyFlush(state, due, watermarkProgress.movedAtMillis());
      if (!early.isEmpty()) {
        keyState.emit(early);
        keyState.store(state);
      }
    }
  }
}
