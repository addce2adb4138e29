package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.watermark.Watermarks;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerMap;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
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
 */
final class LivePanesFn<K, V, AccumT, OutputT, PaneT, ExpiredT>
    extends DoFn<KV<K, Contribution<V, AccumT>>, PaneT> {

  private static final String OPEN_WINDOWS = "openWindows";
  private static final String DEADLINE_TIMERS = "deadlines";
  private static final String FLUSH_TIMERS = "idleFlushes";

  @StateId(OPEN_WINDOWS)
  private final StateSpec<MapState<Instant, WindowState<V, AccumT>>> openWindowsSpec;

  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  @TimerFamily(FLUSH_TIMERS)
  private final TimerSpec flushTimersSpec = TimerSpecs.timerMap(TimeDomain.PROCESSING_TIME);

  private final Counter expiredRecords = TidemarkMetrics.lateRecords();
  private final EventTimeWindowing windowing;
  private final PaneEngine<V, AccumT, OutputT> engine;
  private final PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs;

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

  @ProcessElement
  public void processElement(
      @Element KV<K, Contribution<V, AccumT>> element,
      @Timestamp Instant eventTime,
      @StateId(OPEN_WINDOWS) MapState<Instant, WindowState<V, AccumT>> openWindows,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    IntervalWindow window = windowing.windowOf(eventTime);
    String tag = KeyedPaneState.tag(window.start());
    // This step's input watermark: for an event-time timer the "current relative time" is
    // exactly that.
    Instant watermark = deadlines.get(tag).getCurrentRelativeTime();
    PaneEngine<V, AccumT, OutputT> engine = this.engine.withClock(clockOf(flushes.get(tag)));
    @Nullable WindowState<V, AccumT> open = openWindows.get(window.start()).read();
    if (open != null) {
      // A timer due at this watermark may not have fired yet: its panes come first, so a record
      // judged late never joins a pane that should have closed without it.
      boolean wasArmed = KeyedPaneState.flushArmed(open);
      emit(element.getKey(), engine.onWatermark(open, watermark), out);
      if (open.isDone()) {
        KeyedPaneState.storeOrRelease(open, wasArmed, openWindows, flushes);
        deadlines.get(tag).clear();
        open = null;
      }
    }
    Arrival arrival = engine.arrival(window, watermark);
    Contribution<V, AccumT> contribution = element.getValue();
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
      open = engine.open(window.start());
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
    Instant watermark = Watermarks.latest(deadline, deadlines.get(tag).getCurrentRelativeTime());
    PaneEngine<V, AccumT, OutputT> engine = this.engine.withClock(clockOf(flushes.get(tag)));
    boolean wasArmed = KeyedPaneState.flushArmed(open);
    emit(key, engine.onWatermark(open, watermark), out);
    if (KeyedPaneState.storeOrRelease(open, wasArmed, openWindows, flushes)) {
      deadlines.set(tag, KeyedPaneState.nextDeadline(engine, open));
    }
  }

  /** The EARLY pane of the window whose idle flush is due by the runner's clock. */
  @OnTimerFamily(FLUSH_TIMERS)
  public void onIdleFlush(
      @TimerId String tag,
      @Key K key,
      @StateId(OPEN_WINDOWS) MapState<Instant, WindowState<V, AccumT>> openWindows,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    emit(
        key,
        KeyedPaneState.onFlushTimer(engine.withClock(clockOf(flushes.get(tag))), tag, openWindows),
        out);
  }

  private void emit(K key, List<PaneEngine.Pane<OutputT>> panes, MultiOutputReceiver out) {
    for (PaneEngine.Pane<OutputT> pane : panes) {
      out.get(outputs.panes()).output(outputs.pane(key, pane.pane(), pane.value()));
    }
  }

  /** The runner's processing time, which a {@code TestStream} may set by hand, as a clock. */
  private static Clock clockOf(Timer processingTimeTimer) {
    return new RunnerClock(processingTimeTimer);
  }

  /** Reads the runner's processing time through a processing-time timer. */
  private static final class RunnerClock extends Clock {
    private final Timer processingTimeTimer;

    RunnerClock(Timer processingTimeTimer) {
      this.processingTimeTimer = processingTimeTimer;
    }

    @Override
    public long millis() {
      return processingTimeTimer.getCurrentRelativeTime().getMillis();
    }

    @Override
    public java.time.Instant instant() {
      return java.time.Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the runner's clock has no zone");
    }
  }
}
