package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.KeySessions;
import dev.tidemark.transforms.windowing.KeyedPaneState;
import dev.tidemark.transforms.windowing.PaneEngine;
import dev.tidemark.transforms.windowing.WatermarkProgress;
import dev.tidemark.transforms.windowing.WindowState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.BagState;
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
import org.apache.beam.sdk.values.TupleTag;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The replay's pane step for session windows: applies {@link KeySessions}' rules to each replayed
 * record in the order a live run would have seen it, judged by the watermark it met at its source,
 * so a replay gives the sessions, panes and late records of a live run with the same arrival order,
 * on every runner and at any parallelism.
 *
 * <p>Which sessions a record joins, and whether it is late, depends on the records that came before
 * it, and records reach this step in any order (from several readers, or batches that overtake each
 * other). So the step holds each key's records until they can no longer be overtaken: a record
 * travels at the lowest watermark of its batch, and the replay's source passes a watermark X only
 * after every line that met a watermark below X ({@link ReplayPanesFn} says why), so once this
 * step's input watermark passes X, every record that met a watermark below X is here. Then those
 * records are applied in arrival order (the watermark they met, then input, then line). Before a
 * session's deadline is decided, the records that met a watermark before it are applied first.
 *
 * <p>Held records wait at most the replay's own pace: a recording is read as fast as the steps take
 * it. A session's state goes with its final pane, when the replay's event time passes its expiry; a
 * key with no open session and nothing held keeps only two instants.
 */
final class ReplaySessionsFn<K, R, AccumT, OutputT, PaneT, LateT> extends DoFn<KV<K, R>, PaneT> {

  private static final String SESSIONS = "sessions";
  private static final String PROGRESS = "progress";
  private static final String HELD = "held";
  private static final String EARLIEST_HELD = "earliestHeld";
  private static final String DEADLINE_TIMERS = "deadlines";
  private static final String FLUSH_TIMERS = "idleFlushes";
  private static final String RELEASE = "release";

  @StateId(SESSIONS)
  private final StateSpec<MapState<Instant, WindowState<R, AccumT>>> sessionsSpec;

  @StateId(PROGRESS)
  private final StateSpec<ValueState<Instant>> progressSpec = StateSpecs.value(InstantCoder.of());

  /** Records that a record still on its way could precede. */
  @StateId(HELD)
  private final StateSpec<BagState<R>> heldSpec;

  /** The earliest watermark a held record met. */
  @StateId(EARLIEST_HELD)
  private final StateSpec<ValueState<Instant>> earliestHeldSpec =
      StateSpecs.value(InstantCoder.of());

  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  @TimerFamily(FLUSH_TIMERS)
  private final TimerSpec flushTimersSpec = TimerSpecs.timerMap(TimeDomain.PROCESSING_TIME);

  /** When the input watermark has passed the earliest held record's. */
  @TimerId(RELEASE)
  private final TimerSpec releaseSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  private final Counter lateRecords = TidemarkMetrics.lateRecords();
  private final EventTimeWindowing windowing;
  private final CombineFn<R, AccumT, OutputT> aggregate;
  private final ReplayRecordType<K, R, LateT> type;
  private final PaneEngine<R, AccumT, OutputT> engine;
  private final PaneFormat<K, OutputT, PaneT> format;
  private final TupleTag<PaneT> panes;
  private final TupleTag<LateT> late;
  private transient WatermarkProgress watermarkProgress;

  ReplaySessionsFn(
      EventTimeWindowing windowing,
      CombineFn<R, AccumT, OutputT> aggregate,
      ReplayRecordType<K, R, LateT> type,
      Coder<AccumT> accumulatorCoder,
      PaneFormat<K, OutputT, PaneT> format,
      TupleTag<PaneT> panes,
      TupleTag<LateT> late) {
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.type = type;
    this.engine = PaneEngine.replay(windowing, aggregate, type.arrivalOrder());
    this.format = format;
    this.panes = panes;
    this.late = late;
    this.sessionsSpec =
        StateSpecs.map(
            InstantCoder.of(),
            WindowState.WindowStateCoder.of(type.recordCoder(), accumulatorCoder));
    this.heldSpec = StateSpecs.bag(type.recordCoder());
  }

  @Setup
  public void setup() {
    watermarkProgress = new WatermarkProgress();
  }

  /** One key's sessions, as one call of this step sees them. */
  private KeySessions<R, AccumT, OutputT> sessionsOf(
      K key,
      MapState<Instant, WindowState<R, AccumT>> sessions,
      ValueState<Instant> progress,
      TimerMap deadlines,
      TimerMap flushes,
      MultiOutputReceiver out) {
    return new KeySessions<>(
        windowing,
        aggregate,
        engine,
        sessions,
        deadlines,
        flushes,
        progress.read(),
        pane -> out.get(panes).output(format.of(key, pane.pane(), pane.value())));
  }

  @ProcessElement
  public void processElement(
      @Element KV<K, R> element,
      @StateId(HELD) BagState<R> held,
      @StateId(EARLIEST_HELD) ValueState<Instant> earliestHeld,
      @TimerId(RELEASE) Timer release) {
    held.add(element.getValue());
    Instant arrival = type.arrivalWatermarkOf(element.getValue());
    @Nullable Instant earliest = earliestHeld.read();
    if (earliest == null || arrival.isBefore(earliest)) {
      earliestHeld.write(arrival);
      release.set(releaseAt(arrival));
    }
  }

  /** When a record that met {@code arrival} can no longer be overtaken: just past it. */
  private static Instant releaseAt(Instant arrival) {
    return Watermarks.earliest(
        new Instant(arrival.getMillis() + 1), GlobalWindow.INSTANCE.maxTimestamp());
  }

  /** Applies the held records that met a watermark below the input watermark, in arrival order. */
  @OnTimer(RELEASE)
  public void onRelease(
      @Key K key,
      @StateId(SESSIONS) MapState<Instant, WindowState<R, AccumT>> sessions,
      @StateId(PROGRESS) ValueState<Instant> progress,
      @StateId(HELD) BagState<R> held,
      @StateId(EARLIEST_HELD) ValueState<Instant> earliestHeld,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      @TimerId(RELEASE) Timer release,
      MultiOutputReceiver out) {
    Instant inputWatermark = release.getCurrentRelativeTime();
    KeySessions<R, AccumT, OutputT> keySessions =
        sessionsOf(key, sessions, progress, deadlines, flushes, out);
    apply(keySessions, inputWatermark, held, earliestHeld, release, out);
    if (keySessions.progressMoved()) {
      progress.write(keySessions.progress());
    }
  }

  /**
   * Applies the held records that met a watermark below {@code through}, in arrival order, and
   * keeps the rest, with a release timer at the earliest of them.
   */
  private void apply(
      KeySessions<R, AccumT, OutputT> keySessions,
      Instant through,
      BagState<R> held,
      ValueState<Instant> earliestHeld,
      Timer release,
      MultiOutputReceiver out) {
    List<R> due = new ArrayList<>();
    List<R> kept = new ArrayList<>();
    for (R record : held.read()) {
      (type.arrivalWatermarkOf(record).isBefore(through) ? due : kept).add(record);
    }
    if (due.isEmpty()) {
      return;
    }
    due.sort(type.arrivalOrder());
    for (R record : due) {
      Instant arrival = type.arrivalWatermarkOf(record);
      @Nullable IntervalWindow missed = keySessions.add(record, type.eventTimeOf(record), arrival);
      if (missed != null) {
        lateRecords.inc();
        out.get(late).output(type.late(record, missed, arrival));
      }
    }
    held.clear();
    kept.forEach(held::add);
    @Nullable Instant earliest = null;
    for (R record : kept) {
      Instant arrival = type.arrivalWatermarkOf(record);
      earliest = earliest == null ? arrival : Watermarks.earliest(earliest, arrival);
    }
    if (earliest == null) {
      earliestHeld.clear();
    } else {
      earliestHeld.write(earliest);
      release.set(releaseAt(earliest));
    }
  }

  /**
   * A session's deadline: the held records that met a watermark before it first, then its close or
   * its expiry, at its own instant.
   */
  @OnTimerFamily(DEADLINE_TIMERS)
  public void onDeadline(
      @TimerId String tag,
      @Key K key,
      @Timestamp Instant deadline,
      @StateId(SESSIONS) MapState<Instant, WindowState<R, AccumT>> sessions,
      @StateId(PROGRESS) ValueState<Instant> progress,
      @StateId(HELD) BagState<R> held,
      @StateId(EARLIEST_HELD) ValueState<Instant> earliestHeld,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      @TimerId(RELEASE) Timer release,
      MultiOutputReceiver out) {
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), Clock.systemUTC());
    KeySessions<R, AccumT, OutputT> keySessions =
        sessionsOf(key, sessions, progress, deadlines, flushes, out);
    apply(keySessions, deadline, held, earliestHeld, release, out);
    keySessions.onDeadline(KeyedPaneState.windowStartOf(tag), deadline);
    if (keySessions.progressMoved()) {
      progress.write(keySessions.progress());
    }
  }

  /** The EARLY pane of the session whose idle flush is due. */
  @OnTimerFamily(FLUSH_TIMERS)
  public void onIdleFlush(
      @TimerId String tag,
      @Key K key,
      @StateId(SESSIONS) MapState<Instant, WindowState<R, AccumT>> sessions,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), Clock.systemUTC());
    for (PaneEngine.Pane<OutputT> pane :
        KeyedPaneState.onFlushTimer(
            engine, tag, watermarkProgress.movedAtMillis(), sessions, flushes)) {
      out.get(panes).output(format.of(key, pane.pane(), pane.value()));
    }
  }
}
