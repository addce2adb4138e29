package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.Accumulators;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.KeyedPaneState;
import dev.tidemark.transforms.windowing.PaneEngine;
import dev.tidemark.transforms.windowing.WatermarkProgress;
import dev.tidemark.transforms.windowing.WindowKind;
import dev.tidemark.transforms.windowing.WindowState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
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
import org.apache.beam.sdk.transforms.SerializableComparator;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The replay's pane step for sliding and cumulating windows, the counterpart of {@link
 * ReplayPanesFn}: decides every pane of every (key, window) from the watermark each record met at
 * its source, with one accumulator per slice and verdict ({@link SliceParts}) instead of one per
 * window, so a record is aggregated once however many windows hold it.
 *
 * <p>Input: the {@link SliceRecords} that one batch adds to one of the key's slices ({@link
 * GatherSliceRecordsFn}, which has judged them). The on-time records join their slice's part for
 * the windows they are on time from; each record late within the lateness is held in the state of
 * each window it is late for, as {@link PaneEngine} holds it for a replay. When the step's input
 * watermark passes a window's expiry, every record of it is here (the reasons are {@link
 * ReplayPanesFn}'s), and the engine emits its panes: ON_TIME with the parts of its slices that are
 * on time for it, then a LATE pane per held record in arrival order, the last final. A slice goes
 * when the last window that holds it is done; a window's state goes with its final pane.
 *
 * <p>A part is read only by windows it is on time for, and every record that could be on time for a
 * window arrives before the window expires, so no record reaches a window it missed.
 *
 * <p>The idle flush, as in the live step for these windows: once per key, {@code idleFlush} after
 * the first record its open windows have not reported and after the input watermark last moved, an
 * EARLY pane of every window not yet closed that holds such a record.
 */
final class ReplaySlicesFn<K, R, AccumT, OutputT, PaneT>
    extends DoFn<KV<K, SliceRecords<R, AccumT>>, PaneT> {

  private static final String SLICES = "slices";
  private static final String WINDOWS = "windows";
  private static final String FLUSH_DUE = "flushDue";
  private static final String DEADLINE_TIMERS = "deadlines";
  private static final String FLUSH_TIMER = "idleFlush";

  @StateId(SLICES)
  private final StateSpec<MapState<Instant, SliceParts<AccumT>>> slicesSpec;

  /** The state of each window that holds records late within the lateness or gave a pane. */
  @StateId(WINDOWS)
  private final StateSpec<MapState<Instant, WindowState<R, AccumT>>> windowsSpec;

  @StateId(FLUSH_DUE)
  private final StateSpec<ValueState<Long>> flushDueSpec = StateSpecs.value(VarLongCoder.of());

  /** One event-time timer per window with records, tagged with its end: when it expires. */
  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  @TimerId(FLUSH_TIMER)
  private final TimerSpec flushTimerSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  private final EventTimeWindowing windowing;
  private final WindowKind kind;
  private final CombineFn<R, AccumT, OutputT> aggregate;
  private final Coder<AccumT> accumulatorCoder;
  private final PaneEngine<R, AccumT, OutputT> engine;
  private final PaneFormat<K, OutputT, PaneT> format;
  private transient WatermarkProgress watermarkProgress;

  ReplaySlicesFn(
      EventTimeWindowing windowing,
      CombineFn<R, AccumT, OutputT> aggregate,
      SerializableComparator<R> arrivalOrder,
      Coder<R> recordCoder,
      Coder<AccumT> accumulatorCoder,
      PaneFormat<K, OutputT, PaneT> format) {
    this.windowing = windowing;
    this.kind = windowing.kind();
    this.aggregate = aggregate;
    this.accumulatorCoder = accumulatorCoder;
    this.engine = PaneEngine.replay(windowing, aggregate, arrivalOrder);
    this.format = format;
    this.slicesSpec =
        StateSpecs.map(InstantCoder.of(), new SliceParts.SlicePartsCoder<>(accumulatorCoder));
    this.windowsSpec =
        StateSpecs.map(
            InstantCoder.of(), WindowState.WindowStateCoder.of(recordCoder, accumulatorCoder));
  }

  @Setup
  public void setup() {
    watermarkProgress = new WatermarkProgress();
  }

  @ProcessElement
  public void processElement(
      @Element KV<K, SliceRecords<R, AccumT>> element,
      @StateId(SLICES) MapState<Instant, SliceParts<AccumT>> slices,
      @StateId(WINDOWS) MapState<Instant, WindowState<R, AccumT>> windows,
      @StateId(FLUSH_DUE) ValueState<Long> flushDue,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerId(FLUSH_TIMER) Timer flushTimer) {
    SliceRecords<R, AccumT> records = element.getValue();
    List<IntervalWindow> windowsOfSlice = kind.windowsOfSlice(records.sliceStart);
    String anyTag = KeyedPaneState.tag(records.onTimeFrom);
    watermarkProgress.observe(deadlines.get(anyTag).getCurrentRelativeTime(), Clock.systemUTC());
    if (records.onTimeRecords > 0) {
      @Nullable SliceParts<AccumT> slice = slices.get(records.sliceStart).read();
      slice = slice == null ? new SliceParts<>() : slice;
      SliceParts.@Nullable Part<AccumT> part = slice.partFrom(records.onTimeFrom);
      if (part == null) {
        part = new SliceParts.Part<>(records.onTimeFrom, aggregate.createAccumulator(), 0);
        slice.parts.add(part);
        for (IntervalWindow window : windowsOfSlice) {
          if (!window.end().isBefore(records.onTimeFrom)) {
            deadlines.set(KeyedPaneState.tag(window.end()), expiryOf(window));
          }
        }
      }
      part.accumulated = aggregate.mergeAccumulators(List.of(part.accumulated, records.onTime));
      part.records += records.onTimeRecords;
      if (!windowing.finalPaneOnly()) {
        slice.unreported = true;
        armFlush(flushDue, flushTimer);
      }
      slices.put(records.sliceStart, slice);
    }
    if (records.lateWithinLateness.isEmpty()) {
      return;
    }
    for (IntervalWindow window : windowsOfSlice) {
      if (!records.lateWithinLatenessFor(window.end())) {
        continue;
      }
      @Nullable WindowState<R, AccumT> state = windows.get(window.end()).read();
      state = state == null ? engine.open(window) : state;
      for (R late : records.lateWithinLateness) {
        // A replay holds them until the window expires, then emits their LATE panes in order.
        engine.addLateWithinLateness(state, late);
      }
      windows.put(window.end(), state);
      deadlines.set(KeyedPaneState.tag(window.end()), expiryOf(window));
    }
  }

  private Instant expiryOf(IntervalWindow window) {
    return Watermarks.earliest(engine.expiresAt(window), GlobalWindow.INSTANCE.maxTimestamp());
  }

  private void armFlush(ValueState<Long> flushDue, Timer flushTimer) {
    if (flushDue.read() == null) {
      long due = Clock.systemUTC().millis() + windowing.idleFlush().getMillis();
      flushDue.write(due);
      flushTimer.set(new Instant(due));
    }
  }

  /**
   * {@code window}'s state, with the aggregate and count of the parts of its slices that are on
   * time for it.
   */
  private WindowState<R, AccumT> stateOf(
      IntervalWindow window,
      MapState<Instant, SliceParts<AccumT>> slices,
      MapState<Instant, WindowState<R, AccumT>> windows) {
    @Nullable WindowState<R, AccumT> state = windows.get(window.end()).read();
    state = state == null ? engine.open(window) : state;
    List<AccumT> onTime = new ArrayList<>();
    long records = 0;
    for (Instant start : kind.slicesOf(window)) {
      @Nullable SliceParts<AccumT> slice = slices.get(start).read();
      if (slice == null) {
        continue;
      }
      for (SliceParts.Part<AccumT> part : slice.parts) {
        if (!part.onTimeFrom.isAfter(window.end())) {
          onTime.add(part.accumulated);
          records += part.records;
        }
      }
    }
    engine.setContents(
        state, Accumulators.mergeCopies(aggregate, accumulatorCoder, onTime), records);
    return state;
  }

  /**
   * A window's expiry: its panes, then its state goes, and so do the slices no later window holds.
   */
  @OnTimerFamily(DEADLINE_TIMERS)
  public void onDeadline(
      @TimerId String tag,
      @Key K key,
      @Timestamp Instant deadline,
      @StateId(SLICES) MapState<Instant, SliceParts<AccumT>> slices,
      @StateId(WINDOWS) MapState<Instant, WindowState<R, AccumT>> windows,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      OutputReceiver<PaneT> out) {
    IntervalWindow window = kind.windowEndingAt(KeyedPaneState.windowStartOf(tag));
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), Clock.systemUTC());
    WindowState<R, AccumT> state = stateOf(window, slices, windows);
    emit(key, engine.onWatermark(state, deadline), out);
    if (!state.isDone()) {
      engine.dropContents(state);
      windows.put(window.end(), state);
      deadlines.set(tag, expiryOf(window));
      return;
    }
    windows.remove(window.end());
    for (Instant start : kind.slicesOf(window)) {
      if (!kind.lastWindowEndOfSlice(start).isAfter(window.end())) {
        slices.remove(start);
      }
    }
  }

  /**
   * The key's idle flush: an EARLY pane of every window not yet closed that holds records it has
   * not reported; a flush that the watermark put off is set again.
   */
  @OnTimer(FLUSH_TIMER)
  public void onIdleFlush(
      @Key K key,
      @StateId(SLICES) MapState<Instant, SliceParts<AccumT>> slices,
      @StateId(WINDOWS) MapState<Instant, WindowState<R, AccumT>> windows,
      @StateId(FLUSH_DUE) ValueState<Long> flushDue,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerId(FLUSH_TIMER) Timer flushTimer,
      OutputReceiver<PaneT> out) {
    @Nullable Long due = flushDue.read();
    if (due == null) {
      return;
    }
    Instant inputWatermark = deadlines.get(FLUSH_TIMER).getCurrentRelativeTime();
    watermarkProgress.observe(inputWatermark, Clock.systemUTC());
    long dueNow =
        Math.max(due, watermarkProgress.movedAtMillis() + windowing.idleFlush().getMillis());
    if (dueNow > Clock.systemUTC().millis()) {
      flushDue.write(dueNow);
      flushTimer.set(new Instant(dueNow));
      return;
    }
    flushDue.clear();
    Map<Instant, IntervalWindow> unreported = new TreeMap<>();
    for (Map.Entry<Instant, SliceParts<AccumT>> entry : slices.entries().read()) {
      SliceParts<AccumT> slice = entry.getValue();
      if (!slice.unreported) {
        continue;
      }
      for (IntervalWindow window : kind.windowsOfSlice(entry.getKey())) {
        if (window.end().isAfter(inputWatermark)) {
          unreported.put(window.end(), window);
        }
      }
      slice.unreported = false;
      slices.put(entry.getKey(), slice);
    }
    for (IntervalWindow window : unreported.values()) {
      WindowState<R, AccumT> state = stateOf(window, slices, windows);
      List<PaneEngine.Pane<OutputT>> early =
          engine.onKeyFlush(state, due, watermarkProgress.movedAtMillis());
      if (!early.isEmpty()) {
        emit(key, early, out);
        engine.dropContents(state);
        windows.put(window.end(), state);
      }
    }
  }

  private void emit(K key, List<PaneEngine.Pane<OutputT>> panes, OutputReceiver<PaneT> out) {
    for (PaneEngine.Pane<OutputT> pane : panes) {
      out.output(format.of(key, pane.pane(), pane.value()));
    }
  }
}
