package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.watermark.Watermarks;
import java.time.Clock;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.TimerMap;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The stateful step of {@link AggregatePerWindow}: judges each value, or partial aggregate of
 * values proved on time ({@link Contribution}), by this step's input watermark, keeps each open
 * window's {@link WindowState} in state, and lets {@link PaneEngine} (with {@link
 * PaneEngine.Judge#INPUT_WATERMARK}) decide its panes. {@link AggregatePerWindow}'s javadoc
 * explains why the accounting is exact.
 *
 * <p>Per key it keeps one map entry per open window, with its timers ({@link KeyedPaneState}): an
 * event-time deadline (when the window closes, then when it expires) and, while an EARLY pane is
 * due, a processing-time flush. A window's entry and timers go when it expires; a key with no open
 * window keeps nothing.
 *
 * <h2>Restores</h2>
 *
 * <p>Flink starts every operator's input watermark again from the minimum after a restore, and the
 * first records a restored job reads reach this step before any watermark does whenever a step
 * before it holds the watermark back (Beam's FlinkRunner hands a watermark on only between bundles,
 * and a step reading a backlog is never between bundles). Judged by the minimum, a record of a
 * window that gave its final row before the stop would look on time and open that window again: a
 * second final row. So the step keeps two things across a restore: each open window's state says
 * whether it has closed ({@link PaneEngine#arrival(WindowState, IntervalWindow, Instant)} keeps a
 * closed window closed), and per key the input watermark at which its latest window expired ({@code
 * expiredThrough}). A record of a window the key has no state for is judged by the later of the
 * input watermark and that one: every window that expired before the stop is at or below it, since
 * the watermark never went back before the stop. It is read only when a record opens a window and
 * written only when one expires. A partial aggregate needs neither: its source's restored watermark
 * bound proves it on time.
 */
final class LivePanesFn<K, V, AccumT, OutputT, PaneT, ExpiredT>
    extends DoFn<KV<K, Contribution<V, AccumT>>, PaneT> {

  private static final String OPEN_WINDOWS = "openWindows";
  private static final String EXPIRED_THROUGH = "expiredThrough";
  private static final String DEADLINE_TIMERS = "deadlines";
  private static final String FLUSH_TIMERS = "idleFlushes";

  @StateId(OPEN_WINDOWS)
  private final StateSpec<MapState<Instant, WindowState<V, AccumT>>> openWindowsSpec;

  /**
   * The input watermark at which the key's latest window expired: a restore starts the input
   * watermark again from the minimum, and a record of a window that expired before it must still be
   * late.
   */
  @StateId(EXPIRED_THROUGH)
  private final StateSpec<ValueState<Instant>> expiredThroughSpec =
      StateSpecs.value(InstantCoder.of());

  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  @TimerFamily(FLUSH_TIMERS)
  private final TimerSpec flushTimersSpec = TimerSpecs.timerMap(TimeDomain.PROCESSING_TIME);

  private final Counter expiredRecords = TidemarkMetrics.lateRecords();
  private final EventTimeWindowing windowing;
  private final PaneEngine<V, AccumT, OutputT> engine;
  private final PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs;
  private transient WatermarkProgress watermarkProgress;

  LivePanesFn(
      EventTimeWindowing windowing,
      CombineFn<V, AccumT, OutputT> aggregate,
      Coder<V> valueCoder,
      Coder<AccumT> accumulatorCoder,
      PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    this.windowing = windowing;
    this.engine = PaneEngine.live(windowing, aggregate);
    this.outputs = outputs;
    this.openWindowsSpec =
        StateSpecs.map(
            InstantCoder.of(), WindowState.WindowStateCoder.of(valueCoder, accumulatorCoder));
  }

  @Setup
  public void setup() {
    watermarkProgress = new WatermarkProgress();
  }

  @ProcessElement
  public void processElement(
      @Element KV<K, Contribution<V, AccumT>> element,
      @Timestamp Instant eventTime,
      @StateId(OPEN_WINDOWS) MapState<Instant, WindowState<V, AccumT>> openWindows,
      @StateId(EXPIRED_THROUGH) ValueState<Instant> expiredThrough,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    IntervalWindow window = windowing.windowOf(eventTime);
    String tag = KeyedPaneState.tag(window.start());
    // This step's input watermark: for an event-time timer the "current relative time" is
    // exactly that.
    Instant watermark = deadlines.get(tag).getCurrentRelativeTime();
    Clock clock = new RunnerClock(flushes.get(tag));
    watermarkProgress.observe(watermark, clock);
    PaneEngine<V, AccumT, OutputT> engine = this.engine.withClock(clock);
    @Nullable WindowState<V, AccumT> open = openWindows.get(window.start()).read();
    if (open != null) {
      // A timer due at this watermark may not have fired yet: its panes come first, so a record
      // judged late never joins a pane that should have closed without it.
      boolean wasArmed = KeyedPaneState.flushArmed(open);
      emit(element.getKey(), engine.onWatermark(open, watermark), out);
      if (open.isDone()) {
        KeyedPaneState.storeOrRelease(open, wasArmed, openWindows, flushes);
        deadlines.get(tag).clear();
        noteExpiry(expiredThrough, watermark);
        open = null;
      }
    }
    Contribution<V, AccumT> contribution = element.getValue();
    if (open == null && !contribution.isPartial()) {
      // A window the key has no state for may have expired before a restore set the input
      // watermark back; a partial needs no such look, its source's restored bound proves it on
      // time.
      watermark = Watermarks.latest(watermark, expiredThrough(expiredThrough));
    }
    Arrival arrival =
        contribution.isPartial()
            ? engine.arrival(window, watermark)
            : engine.arrival(open, window, watermark);
    if (contribution.isPartial() && arrival != Arrival.ON_TIME) {
      throw new IllegalStateException(
          String.format(
              "%d records aggregated before the shuffle reached window %s at watermark %s, after"
                  + " its end: the step that aggregated them had a wrong watermark bound, and"
                  + " they cannot be captured one by one",
              contribution.records(), window, watermark));
    }
    if (arrival == Arrival.EXPIRED) {
      expiredRecords.inc();
      out.get(outputs.expired())
          .output(
              outputs.expired(
                  element.getKey(),
                  new Expired<>(contribution.value(), eventTime, window, watermark)));
      return;
    }
    if (open == null) {
      open = engine.open(window);
      emit(element.getKey(), engine.onWatermark(open, watermark), out);
      deadlines.set(tag, KeyedPaneState.nextDeadline(engine, open));
    }
    if (arrival == Arrival.ON_TIME) {
      boolean wasArmed = KeyedPaneState.flushArmed(open);
      if (contribution.isPartial()) {
        engine.addOnTime(open, contribution.partial(), contribution.records());
      } else {
        engine.addOnTime(open, contribution.value());
      }
      KeyedPaneState.armFlush(open, wasArmed, flushes);
    } else {
      emit(element.getKey(), engine.addLateWithinLateness(open, contribution.value()), out);
    }
    openWindows.put(window.start(), open);
  }

  /**
   * A window's deadline: when it closes, its ON_TIME pane; when it expires, its final pane, and its
   * state and timers go ({@link KeyedPaneState}). Only this window is read, so a deadline costs the
   * same however many windows the key has open.
   */
  @OnTimerFamily(DEADLINE_TIMERS)
  public void onDeadline(
      @TimerId String tag,
      @Key K key,
      @Timestamp Instant deadline,
      @StateId(OPEN_WINDOWS) MapState<Instant, WindowState<V, AccumT>> openWindows,
      @StateId(EXPIRED_THROUGH) ValueState<Instant> expiredThrough,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    @Nullable WindowState<V, AccumT> open =
        openWindows.get(KeyedPaneState.windowStartOf(tag)).read();
    if (open == null) {
      return;
    }
    // The watermark may have jumped past the deadline: the window is then judged where it is, so
    // an ON_TIME pane that is also the last one is final, as Beam's own trigger makes it.
    Instant inputWatermark = deadlines.get(tag).getCurrentRelativeTime();
    Clock clock = new RunnerClock(flushes.get(tag));
    watermarkProgress.observe(inputWatermark, clock);
    Instant watermark = Watermarks.latest(deadline, inputWatermark);
    PaneEngine<V, AccumT, OutputT> engine = this.engine.withClock(clock);
    boolean wasArmed = KeyedPaneState.flushArmed(open);
    emit(key, engine.onWatermark(open, watermark), out);
    if (KeyedPaneState.storeOrRelease(open, wasArmed, openWindows, flushes)) {
      deadlines.set(tag, KeyedPaneState.nextDeadline(engine, open));
    } else {
      noteExpiry(expiredThrough, watermark);
    }
  }

  private static Instant expiredThrough(ValueState<Instant> expiredThrough) {
    @Nullable Instant through = expiredThrough.read();
    return through == null ? BoundedWindow.TIMESTAMP_MIN_VALUE : through;
  }

  private static void noteExpiry(ValueState<Instant> expiredThrough, Instant watermark) {
    if (watermark.isAfter(expiredThrough(expiredThrough))) {
      expiredThrough.write(watermark);
    }
  }

  /**
   * The EARLY pane of the window whose idle flush is due by the runner's clock and the watermark's
   * progress; a flush that the watermark put off is set again.
   */
  @OnTimerFamily(FLUSH_TIMERS)
  public void onIdleFlush(
      @TimerId String tag,
      @Key K key,
      @StateId(OPEN_WINDOWS) MapState<Instant, WindowState<V, AccumT>> openWindows,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    Clock clock = new RunnerClock(flushes.get(tag));
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), clock);
    emit(
        key,
        KeyedPaneState.onFlushTimer(
            engine.withClock(clock), tag, watermarkProgress.movedAtMillis(), openWindows, flushes),
        out);
  }

  private void emit(K key, List<PaneEngine.Pane<OutputT>> panes, MultiOutputReceiver out) {
    for (PaneEngine.Pane<OutputT> pane : panes) {
      out.get(outputs.panes()).output(outputs.pane(key, pane.pane(), pane.value()));
    }
  }
}
