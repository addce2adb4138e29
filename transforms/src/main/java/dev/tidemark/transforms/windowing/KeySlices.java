package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.watermark.Watermarks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.TimerMap;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The slices and windows of one key of sliding or cumulating windows, as one call of {@link
 * SlicedPanesFn} sees them, with the rules that step applies to them: what a record is to each of
 * its windows, how a window's state is filled from its slices, and how windows are decided, in the
 * order of their ends ({@link SlicedPanesFn} says why).
 */
final class KeySlices<V, AccumT, OutputT> {
  private final WindowKind kind;
  private final CombineFn<V, AccumT, OutputT> aggregate;
  private final Coder<AccumT> accumulatorCoder;
  final MapState<Instant, SliceState<AccumT>> slices;
  final MapState<Instant, WindowState<V, AccumT>> windows;
  final TimerMap deadlines;
  final PaneEngine<V, AccumT, OutputT> engine;
  final Consumer<PaneEngine.Pane<OutputT>> panes;
  private final @Nullable KV<Instant, Instant> progressRead;
  Instant decidedThrough;
  Instant doneThrough;

  KeySlices(
      WindowKind kind,
      CombineFn<V, AccumT, OutputT> aggregate,
      Coder<AccumT> accumulatorCoder,
      PaneEngine<V, AccumT, OutputT> engine,
      MapState<Instant, SliceState<AccumT>> slices,
      MapState<Instant, WindowState<V, AccumT>> windows,
      @Nullable KV<Instant, Instant> progress,
      TimerMap deadlines,
      Consumer<PaneEngine.Pane<OutputT>> panes) {
    this.kind = kind;
    this.aggregate = aggregate;
    this.accumulatorCoder = accumulatorCoder;
    this.slices = slices;
    this.windows = windows;
    this.deadlines = deadlines;
    this.engine = engine;
    this.panes = panes;
    this.progressRead = progress;
    this.decidedThrough = progress == null ? Watermarks.MIN : progress.getKey();
    this.doneThrough = progress == null ? Watermarks.MIN : progress.getValue();
  }

  KV<Instant, Instant> progress() {
    return KV.of(decidedThrough, doneThrough);
  }

  /** Whether {@link #progress} moved since it was read; a steady stream mostly leaves it. */
  boolean progressMoved() {
    return !progress().equals(progressRead);
  }

  boolean isDone(IntervalWindow window) {
    return !window.end().isAfter(doneThrough);
  }

  /** The window's state, its aggregate and record count filled from its slices now. */
  WindowState<V, AccumT> stateOf(IntervalWindow window) {
    @Nullable WindowState<V, AccumT> state = windows.get(window.end()).read();
    if (state == null) {
      state = engine.open(window);
    }
    List<AccumT> parts = new ArrayList<>();
    long records = 0;
    for (Instant start : kind.slicesOf(window)) {
      @Nullable SliceState<AccumT> slice = slices.get(start).read();
      if (slice != null) {
        parts.add(slice.accumulated);
        records += slice.records;
      }
    }
    engine.setContents(
        state, Accumulators.mergeCopies(aggregate, accumulatorCoder, parts), records);
    return state;
  }

  /** Keeps the window's state without its aggregate, which its slices hold. */
  void store(WindowState<V, AccumT> state) {
    engine.dropContents(state);
    windows.put(state.windowEnd(), state);
  }

  /**
   * Applies {@code watermark} to {@code window}: its panes due by then, and then either its next
   * deadline, or, once its final pane is out, the release of its state and of the slices no later
   * window holds.
   */
  void decide(IntervalWindow window, Instant watermark) {
    WindowState<V, AccumT> state = stateOf(window);
    if (state.records == 0) {
      // A window none of whose slices has a record has no pane and no deadline; once expired,
      // it is done, and a record that comes into one of its slices later has missed it.
      if (engine.arrival(window, watermark) == Arrival.EXPIRED) {
        doneThrough = Watermarks.latest(doneThrough, window.end());
      }
      return;
    }
    emit(engine.onWatermark(state, watermark));
    decidedThrough = Watermarks.latest(decidedThrough, watermark);
    String tag = KeyedPaneState.tag(window.end());
    if (!state.isDone()) {
      store(state);
      deadlines.set(tag, cappedDeadline(state));
      return;
    }
    windows.remove(window.end());
    deadlines.get(tag).clear();
    doneThrough = Watermarks.latest(doneThrough, window.end());
    for (Instant start : kind.slicesOf(window)) {
      if (!kind.lastWindowEndOfSlice(start).isAfter(window.end())) {
        slices.remove(start);
      }
    }
  }

  /**
   * Gives {@code window} its final pane under {@code watermark}, after every window of the key that
   * ends before it and is not done yet: windows are done in the order of their ends, which is what
   * lets {@link #doneThrough} say which are.
   */
  void finish(IntervalWindow window, Instant watermark) {
    TreeMap<Instant, IntervalWindow> earlier = new TreeMap<>();
    for (Map.Entry<Instant, SliceState<AccumT>> slice : slices.entries().read()) {
      for (IntervalWindow other : kind.windowsOfSlice(slice.getKey())) {
        if (other.end().isBefore(window.end()) && !isDone(other)) {
          earlier.put(other.end(), other);
        }
      }
    }
    earlier.values().forEach(other -> decide(other, watermark));
    decide(window, watermark);
  }

  Instant cappedDeadline(WindowState<V, AccumT> state) {
    return Watermarks.earliest(engine.nextDeadline(state), GlobalWindow.INSTANCE.maxTimestamp());
  }

  void emit(List<PaneEngine.Pane<OutputT>> decided) {
    decided.forEach(panes);
  }

  /** What a record is to each of its windows. */
  static final class Verdicts {
    final int windows;
    int onTime;
    int missed;
    final List<IntervalWindow> lateWithinLateness = new ArrayList<>();
    @Nullable IntervalWindow lastMissed;

    Verdicts(int windows) {
      this.windows = windows;
    }

    boolean allOnTime() {
      return onTime == windows;
    }

    boolean missedAll() {
      return missed == windows;
    }
  }

  Verdicts judge(List<IntervalWindow> windows, Instant watermark) {
    Verdicts verdicts = new Verdicts(windows.size());
    for (IntervalWindow window : windows) {
      Arrival arrival = isDone(window) ? Arrival.EXPIRED : engine.arrival(window, watermark);
      switch (arrival) {
        case ON_TIME:
          verdicts.onTime++;
          break;
        case LATE_WITHIN_LATENESS:
          verdicts.lateWithinLateness.add(window);
          break;
        default:
          verdicts.missed++;
          verdicts.lastMissed = window;
      }
    }
    return verdicts;
  }
}
