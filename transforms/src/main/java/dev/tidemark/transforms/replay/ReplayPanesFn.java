package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.KeyedPaneState;
import dev.tidemark.transforms.windowing.PaneEngine;
import dev.tidemark.transforms.windowing.WatermarkProgress;
import dev.tidemark.transforms.windowing.WindowState;
import java.time.Clock;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.TimerMap;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.SerializableComparator;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Decides, for replayed records, every pane of every (key, window) from the watermark each record
 * met at its source, so a replay emits what a live run with the same arrival order would, on every
 * runner and at any parallelism. Input: {@code KV(key, records)}, the {@link WindowRecords} that
 * one batch of a recording adds to one of the key's windows ({@link GatherWindowRecordsFn}, which
 * also sends records whose window had expired to the late output, by the same rules).
 *
 * <p>The rules, and the one way a replay's panes differ from a live run's, are {@link PaneEngine}'s
 * (with {@link PaneEngine.Judge#ARRIVAL_WATERMARK}): this step keeps each window's {@link
 * WindowState} in state, and calls the engine from its timers.
 *
 * <h2>Why it is exact, and when panes are emitted</h2>
 *
 * <p>Which pane a record belongs to depends only on its own W, so it does not matter in which order
 * the runner delivers records to this step. What must hold is that a pane is not emitted before
 * every record that belongs to it has arrived. The replay source reports as its watermark the
 * arrival watermark of the next line it will read, so it passes a value X only after every line
 * with {@code W < X} has been emitted; runners deliver a source's records before the watermarks it
 * reports after them (Flink: in order on each channel, and a step's watermark is the minimum over
 * its channels; DirectRunner: a pending element holds its consumer's watermark). So when this
 * step's input watermark reaches X, every record with {@code W < X} is here. For that a record must
 * travel at the watermark it met: its element timestamp is W, not its event time (which the record
 * carries). A record stamped with its event time would be behind the watermark when it is out of
 * order, and a record behind the watermark holds nothing: the DirectRunner's grouping in front of a
 * stateful step then lets the watermark overtake records late within the lateness, and their
 * windows would be reported twice. An event-time timer at {@code end - 1 ms + allowedLateness + 1
 * ms} therefore fires only when every record of the window that is not expired is here: then every
 * pane is known, and so is which one is last. The panes of a window are emitted then, once each.
 * With no allowed lateness that is as soon as the window closes; with allowed lateness L, the
 * replay's event time must pass {@code end + L} first, which a replay does at the speed it reads.
 *
 * <p>State is released when a window's panes are emitted, so memory follows the windows open at one
 * time (those within {@code maxOutOfOrderness + size + allowedLateness} of the replay's watermark),
 * not the length of the recording. Once a key has no open window, it has no state and no timer.
 */
final class ReplayPanesFn<K, R, AccumT, OutputT, PaneT>
    extends DoFn<KV<K, WindowRecords<R, AccumT>>, PaneT> {

  private static final String OPEN_WINDOWS = "openWindows";
  private static final String DEADLINE_TIMERS = "deadlines";
  private static final String FLUSH_TIMERS = "idleFlushes";

  @StateId(OPEN_WINDOWS)
  private final StateSpec<MapState<Instant, WindowState<R, AccumT>>> openWindowsSpec;

  /** One event-time timer per open window, tagged with its start: when it closes, then expires. */
  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  /** While an EARLY pane of a window is due, a processing-time timer tagged with its start. */
  @TimerFamily(FLUSH_TIMERS)
  private final TimerSpec flushTimersSpec = TimerSpecs.timerMap(TimeDomain.PROCESSING_TIME);

  private final EventTimeWindowing windowing;
  private final PaneEngine<R, AccumT, OutputT> engine;
  private final PaneFormat<K, OutputT, PaneT> format;
  private transient WatermarkProgress watermarkProgress;

  ReplayPanesFn(
      EventTimeWindowing windowing,
      CombineFn<R, AccumT, OutputT> aggregate,
      SerializableComparator<R> arrivalOrder,
      Coder<R> recordCoder,
      Coder<AccumT> accumulatorCoder,
      PaneFormat<K, OutputT, PaneT> format) {
    this.windowing = windowing;
    this.engine = PaneEngine.replay(windowing, aggregate, arrivalOrder);
    this.format = format;
    this.openWindowsSpec =
        StateSpecs.map(
            InstantCoder.of(), WindowState.WindowStateCoder.of(recordCoder, accumulatorCoder));
  }

  @Setup
  public void setup() {
    watermarkProgress = new WatermarkProgress();
  }

  @ProcessElement
  public void processElement(
      @Element KV<K, WindowRecords<R, AccumT>> element,
      @StateId(OPEN_WINDOWS) MapState<Instant, WindowState<R, AccumT>> openWindows,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes) {
    WindowRecords<R, AccumT> records = element.getValue();
    String tag = KeyedPaneState.tag(records.windowStart);
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), Clock.systemUTC());
    @Nullable WindowState<R, AccumT> open = openWindows.get(records.windowStart).read();
    if (open == null) {
      open = engine.open(windowing.windowOf(records.windowStart));
      deadlines.set(tag, KeyedPaneState.nextDeadline(engine, open));
    }
    boolean wasArmed = KeyedPaneState.flushArmed(open);
    engine.addOnTime(open, records.onTime, records.onTimeRecords);
    for (R late : records.lateWithinLateness) {
      engine.addLateWithinLateness(open, late);
    }
    KeyedPaneState.armFlush(open, wasArmed, flushes);
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
      @Key K key,
      @Timestamp Instant deadline,
      @StateId(OPEN_WINDOWS) MapState<Instant, WindowState<R, AccumT>> openWindows,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      OutputReceiver<PaneT> out) {
    @Nullable WindowState<R, AccumT> open =
        openWindows.get(KeyedPaneState.windowStartOf(tag)).read();
    if (open == null) {
      return;
    }
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), Clock.systemUTC());
    boolean wasArmed = KeyedPaneState.flushArmed(open);
    emit(key, engine.onWatermark(open, deadline), out);
    if (KeyedPaneState.storeOrRelease(open, wasArmed, openWindows, flushes)) {
      deadlines.set(tag, KeyedPaneState.nextDeadline(engine, open));
    }
  }

  /**
   * The EARLY pane of the window whose idle flush is due; one the watermark put off is set again.
   */
  @OnTimerFamily(FLUSH_TIMERS)
  public void onIdleFlush(
      @TimerId String tag,
      @Key K key,
      @StateId(OPEN_WINDOWS) MapState<Instant, WindowState<R, AccumT>> openWindows,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      OutputReceiver<PaneT> out) {
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), Clock.systemUTC());
    emit(
        key,
        KeyedPaneState.onFlushTimer(
            engine, tag, watermarkProgress.movedAtMillis(), openWindows, flushes),
        out);
  }

  private void emit(K key, List<PaneEngine.Pane<OutputT>> panes, OutputReceiver<PaneT> out) {
    for (PaneEngine.Pane<OutputT> pane : panes) {
      out.output(format.of(key, pane.pane(), pane.value()));
    }
  }
}
