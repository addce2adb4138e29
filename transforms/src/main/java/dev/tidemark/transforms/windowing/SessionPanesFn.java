package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.watermark.Watermarks;
import java.time.Clock;
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
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The stateful step of {@link AggregatePerWindow} for session windows: keeps each key's open
 * sessions and applies {@link KeySessions}' rules to each record as it comes, judged by this step's
 * input watermark, or by the key's latest decided watermark if that is later (after a restore,
 * Flink starts the input watermark again from the minimum; a closed session must stay closed). Each
 * session has an event-time deadline (its close, then its expiry) and, while an EARLY pane is due,
 * an idle flush, both tagged with its start.
 */
final class SessionPanesFn<K, V, AccumT, OutputT, PaneT, ExpiredT>
    extends DoFn<KV<K, Contribution<V, AccumT>>, PaneT> {

  private static final String SESSIONS = "sessions";
  private static final String PROGRESS = "progress";
  private static final String DEADLINE_TIMERS = "deadlines";
  private static final String FLUSH_TIMERS = "idleFlushes";

  /** Each open session by its start. */
  @StateId(SESSIONS)
  private final StateSpec<MapState<Instant, WindowState<V, AccumT>>> sessionsSpec;

  /** The key's latest decided watermark. */
  @StateId(PROGRESS)
  private final StateSpec<ValueState<Instant>> progressSpec = StateSpecs.value(InstantCoder.of());

  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  @TimerFamily(FLUSH_TIMERS)
  private final TimerSpec flushTimersSpec = TimerSpecs.timerMap(TimeDomain.PROCESSING_TIME);

  private final Counter expiredRecords = TidemarkMetrics.lateRecords();
  private final EventTimeWindowing windowing;
  private final CombineFn<V, AccumT, OutputT> aggregate;
  private final PaneEngine<V, AccumT, OutputT> engine;
  private final PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs;
  private transient WatermarkProgress watermarkProgress;

  SessionPanesFn(
      EventTimeWindowing windowing,
      CombineFn<V, AccumT, OutputT> aggregate,
      Coder<V> valueCoder,
      Coder<AccumT> accumulatorCoder,
      PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.engine = PaneEngine.live(windowing, aggregate);
    this.outputs = outputs;
    this.sessionsSpec =
        StateSpecs.map(
            InstantCoder.of(), WindowState.WindowStateCoder.of(valueCoder, accumulatorCoder));
  }

  @Setup
  public void setup() {
    watermarkProgress = new WatermarkProgress();
  }

  private KeySessions<V, AccumT, OutputT> sessionsOf(
      K key,
      MapState<Instant, WindowState<V, AccumT>> sessions,
      ValueState<Instant> progress,
      TimerMap deadlines,
      TimerMap flushes,
      Clock clock,
      MultiOutputReceiver out) {
    return new KeySessions<>(
        windowing,
        aggregate,
        engine.withClock(clock),
        sessions,
        deadlines,
        flushes,
        progress.read(),
        pane -> out.get(outputs.panes()).output(outputs.pane(key, pane.pane(), pane.value())));
  }

  @ProcessElement
  public void processElement(
      @Element KV<K, Contribution<V, AccumT>> element,
      @Timestamp Instant eventTime,
      @StateId(SESSIONS) MapState<Instant, WindowState<V, AccumT>> sessions,
      @StateId(PROGRESS) ValueState<Instant> progress,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    Contribution<V, AccumT> contribution = element.getValue();
    if (contribution.isPartial()) {
      throw new IllegalStateException(
          "sessions take each record alone: a record's own time bounds its session");
    }
    String anyTag = KeyedPaneState.tag(eventTime);
    // This step's input watermark: for an event-time timer the "current relative time" is
    // exactly that.
    Instant inputWatermark = deadlines.get(anyTag).getCurrentRelativeTime();
    Clock clock = new RunnerClock(flushes.get(anyTag));
    watermarkProgress.observe(inputWatermark, clock);
    KeySessions<V, AccumT, OutputT> key =
        sessionsOf(element.getKey(), sessions, progress, deadlines, flushes, clock, out);
    Instant watermark = Watermarks.latest(inputWatermark, key.decidedThrough());
    @Nullable IntervalWindow missed = key.add(contribution.value(), eventTime, watermark);
    if (missed != null) {
      expiredRecords.inc();
      out.get(outputs.expired())
          .output(
              outputs.expired(
                  element.getKey(),
                  new Expired<>(contribution.value(), eventTime, missed, watermark)));
    }
    if (key.progressMoved()) {
      progress.write(key.progress());
    }
  }

  /**
   * A session's deadline: when it closes, its ON_TIME pane; when it expires, its final pane, and
   * its state and timers go. Judged at its own instant, so sessions expire in the order of their
   * ends.
   */
  @OnTimerFamily(DEADLINE_TIMERS)
  public void onDeadline(
      @TimerId String tag,
      @Key K key,
      @Timestamp Instant deadline,
      @StateId(SESSIONS) MapState<Instant, WindowState<V, AccumT>> sessions,
      @StateId(PROGRESS) ValueState<Instant> progress,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    Clock clock = new RunnerClock(flushes.get(tag));
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), clock);
    KeySessions<V, AccumT, OutputT> keySessions =
        sessionsOf(key, sessions, progress, deadlines, flushes, clock, out);
    keySessions.onDeadline(KeyedPaneState.windowStartOf(tag), deadline);
    if (keySessions.progressMoved()) {
      progress.write(keySessions.progress());
    }
  }

  /**
   * The EARLY pane of the session whose idle flush is due by the runner's clock and the watermark's
   * progress; a flush that the watermark put off is set again.
   */
  @OnTimerFamily(FLUSH_TIMERS)
  public void onIdleFlush(
      @TimerId String tag,
      @Key K key,
      @StateId(SESSIONS) MapState<Instant, WindowState<V, AccumT>> sessions,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    Clock clock = new RunnerClock(flushes.get(tag));
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), clock);
    for (PaneEngine.Pane<OutputT> pane :
        KeyedPaneState.onFlushTimer(
            engine.withClock(clock), tag, watermarkProgress.movedAtMillis(), sessions, flushes)) {
      out.get(outputs.panes()).output(outputs.pane(key, pane.pane(), pane.value()));
    }
  }
}
