package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.watermark.Watermarks;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.KvCoder;
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
 * sessions, merges them as records come, and lets {@link PaneEngine} decide each session's panes by
 * the same rules as any window's.
 *
 * <h3>A record, and the sessions it touches</h3>
 *
 * <p>A record at {@code t} opens {@code [t, t + gap)}. The key's sessions that overlap or touch it
 * (a session ending exactly where it starts too, as Flink's session windows merge) merge with it
 * into one session from the earliest start to the latest end. It is judged by the step's input
 * watermark, or by the key's latest decided watermark if that is later (after a restore, Flink
 * starts the input watermark again from the minimum; a closed session must stay closed):
 *
 * <ul>
 *   <li>it is late, and goes to the expired output with its own window, when it could join only
 *       sessions that have expired: its window starts at or before the end of the latest session of
 *       the key that expired, or its own window has expired and it touches no open session;
 *   <li>otherwise it is counted, even when it is older than the watermark: in the session's next
 *       pane if that session is open, or in a LATE pane of its own, now, if it has closed.
 * </ul>
 *
 * <p>Before a record is judged, every session of the key whose close or expiry that watermark has
 * reached is decided, in the order of their ends, so a record never joins a session that should
 * have closed without it.
 *
 * <h3>A session that merges after a pane of it came out</h3>
 *
 * <p>The merged session is a new window: its panes start again at index 0. Each session it took in
 * that had given a pane (EARLY by the idle flush, ON_TIME, or LATE) gets one last pane that
 * withdraws it ({@link PaneEngine#withdrawal}), naming the session it merged into, so a consumer
 * that keeps the latest pane per (key, window) ends with exactly the right sessions. With {@link
 * EventTimeWindowing#withFinalPaneOnly()} no session gives a pane before it expires, and none is
 * ever withdrawn.
 *
 * <h3>Sessions expire in the order of their ends</h3>
 *
 * <p>A session's deadline (its close, then its expiry) is judged at its own instant, and timers
 * fire in the order of their instants, so sessions expire in the order of their ends and one
 * instant per key ({@code expiredThrough}) says where expired sessions end. A session's state and
 * timers go with its final pane; a key with no open session keeps only that instant and its latest
 * decided watermark.
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

  /** The key's latest decided watermark, and the end of its latest session that expired. */
  @StateId(PROGRESS)
  private final StateSpec<ValueState<KV<Instant, Instant>>> progressSpec =
      StateSpecs.value(KvCoder.of(InstantCoder.of(), InstantCoder.of()));

  @TimerFamily(DEADLINE_TIMERS)
  private final TimerSpec deadlineTimersSpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

  @TimerFamily(FLUSH_TIMERS)
  private final TimerSpec flushTimersSpec = TimerSpecs.timerMap(TimeDomain.PROCESSING_TIME);

  private final Counter expiredRecords = TidemarkMetrics.lateRecords();
  private final long gapMillis;
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
    this.gapMillis = windowing.kind().size().getMillis();
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

  /** The state and timers of one key, as one call of this step sees them. */
  private final class KeyState {
    final K key;
    final MapState<Instant, WindowState<V, AccumT>> sessions;
    final TimerMap deadlines;
    final TimerMap flushes;
    final PaneEngine<V, AccumT, OutputT> engine;
    final MultiOutputReceiver out;
    Instant decidedThrough;
    Instant expiredThrough;

    KeyState(
        K key,
        MapState<Instant, WindowState<V, AccumT>> sessions,
        @Nullable KV<Instant, Instant> progress,
        TimerMap deadlines,
        TimerMap flushes,
        Clock clock,
        MultiOutputReceiver out) {
      this.key = key;
      this.sessions = sessions;
      this.deadlines = deadlines;
      this.flushes = flushes;
      this.engine = SessionPanesFn.this.engine.withClock(clock);
      this.out = out;
      this.decidedThrough = progress == null ? Watermarks.MIN : progress.getKey();
      this.expiredThrough = progress == null ? Watermarks.MIN : progress.getValue();
    }

    KV<Instant, Instant> progress() {
      return KV.of(decidedThrough, expiredThrough);
    }

    /** The key's open sessions, the earliest end first. */
    List<WindowState<V, AccumT>> openSessions() {
      List<WindowState<V, AccumT>> open = new ArrayList<>();
      for (Map.Entry<Instant, WindowState<V, AccumT>> entry : sessions.entries().read()) {
        open.add(entry.getValue());
      }
      open.sort(Comparator.comparing(WindowState::windowEnd));
      return open;
    }

    /**
     * Applies {@code watermark} to {@code session}: its panes due by then, then its next deadline,
     * or, once its final pane is out, the release of its state and timers. Returns whether it is
     * still open.
     */
    boolean decide(WindowState<V, AccumT> session, Instant watermark) {
      boolean wasArmed = KeyedPaneState.flushArmed(session);
      emit(engine.onWatermark(session, watermark));
      decidedThrough = Watermarks.latest(decidedThrough, watermark);
      String tag = KeyedPaneState.tag(session.windowStart());
      if (KeyedPaneState.storeOrRelease(session, wasArmed, sessions, flushes)) {
        deadlines.set(tag, KeyedPaneState.nextDeadline(engine, session));
        return true;
      }
      deadlines.get(tag).clear();
      expiredThrough = Watermarks.latest(expiredThrough, session.windowEnd());
      return false;
    }

    /** Forgets {@code session}, merged into another: its state and timers go. */
    void forget(WindowState<V, AccumT> session) {
      String tag = KeyedPaneState.tag(session.windowStart());
      sessions.remove(session.windowStart());
      deadlines.get(tag).clear();
      if (KeyedPaneState.flushArmed(session)) {
        flushes.get(tag).clear();
      }
    }

    void emit(List<PaneEngine.Pane<OutputT>> panes) {
      for (PaneEngine.Pane<OutputT> pane : panes) {
        emit(pane);
      }
    }

    void emit(PaneEngine.Pane<OutputT> pane) {
      out.get(outputs.panes()).output(outputs.pane(key, pane.pane(), pane.value()));
    }
  }

  @ProcessElement
  public void processElement(
      @Element KV<K, Contribution<V, AccumT>> element,
      @Timestamp Instant eventTime,
      @StateId(SESSIONS) MapState<Instant, WindowState<V, AccumT>> sessions,
      @StateId(PROGRESS) ValueState<KV<Instant, Instant>> progress,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    Contribution<V, AccumT> contribution = element.getValue();
    if (contribution.isPartial()) {
      throw new IllegalStateException(
          "sessions take each record alone: a record's own time bounds its session");
    }
    V value = contribution.value();
    String anyTag = KeyedPaneState.tag(eventTime);
    // This step's input watermark: for an event-time timer the "current relative time" is
    // exactly that.
    Instant inputWatermark = deadlines.get(anyTag).getCurrentRelativeTime();
    Clock clock = new RunnerClock(flushes.get(anyTag));
    watermarkProgress.observe(inputWatermark, clock);
    KeyState key =
        new KeyState(element.getKey(), sessions, progress.read(), deadlines, flushes, clock, out);
    Instant watermark = Watermarks.latest(inputWatermark, key.decidedThrough);
    List<WindowState<V, AccumT>> open = new ArrayList<>();
    for (WindowState<V, AccumT> session : key.openSessions()) {
      // A timer due at this watermark may not have fired yet: its panes come first.
      if (watermark.isBefore(session.windowEnd()) || key.decide(session, watermark)) {
        open.add(session);
      }
    }
    IntervalWindow own =
        new IntervalWindow(eventTime, new Instant(eventTime.getMillis() + gapMillis));
    List<WindowState<V, AccumT>> touched = new ArrayList<>();
    for (WindowState<V, AccumT> session : open) {
      if (!session.windowStart().isAfter(own.end()) && !session.windowEnd().isBefore(own.start())) {
        touched.add(session);
      }
    }
    boolean couldJoinOnlyExpired = !own.start().isAfter(key.expiredThrough);
    if (couldJoinOnlyExpired
        || (touched.isEmpty() && engine.arrival(own, watermark) == Arrival.EXPIRED)) {
      expiredRecords.inc();
      out.get(outputs.expired())
          .output(
              outputs.expired(element.getKey(), new Expired<>(value, eventTime, own, watermark)));
      progress.write(key.progress());
      return;
    }
    WindowState<V, AccumT> session = sessionOf(key, own, touched, watermark);
    String tag = KeyedPaneState.tag(session.windowStart());
    IntervalWindow window = new IntervalWindow(session.windowStart(), session.windowEnd());
    if (key.engine.arrival(session, window, watermark) == Arrival.ON_TIME) {
      boolean wasArmed = KeyedPaneState.flushArmed(session);
      key.engine.addOnTime(session, value);
      KeyedPaneState.armFlush(session, wasArmed, flushes);
    } else {
      key.emit(key.engine.addLateWithinLateness(session, value));
    }
    sessions.put(session.windowStart(), session);
    deadlines.set(tag, KeyedPaneState.nextDeadline(engine, session));
    progress.write(key.progress());
  }

  /**
   * The session a record with window {@code own} joins: the one it lies in, or a new one merged
   * from it and every session it touches, each of which that gave a pane withdrawn.
   */
  private WindowState<V, AccumT> sessionOf(
      KeyState key, IntervalWindow own, List<WindowState<V, AccumT>> touched, Instant watermark) {
    if (touched.size() == 1
        && !touched.get(0).windowStart().isAfter(own.start())
        && !touched.get(0).windowEnd().isBefore(own.end())) {
      return touched.get(0);
    }
    Instant start = own.start();
    Instant end = own.end();
    for (WindowState<V, AccumT> session : touched) {
      start = Watermarks.earliest(start, session.windowStart());
      end = Watermarks.latest(end, session.windowEnd());
    }
    IntervalWindow merged = new IntervalWindow(start, end);
    // Withdrawn first, with their last values: merging may change the accumulators it is given.
    List<AccumT> accumulators = new ArrayList<>();
    long records = 0;
    for (WindowState<V, AccumT> taken : touched) {
      if (taken.panesEmitted > 0) {
        key.emit(key.engine.withdrawal(taken, merged));
      }
      key.forget(taken);
      accumulators.add(taken.accumulated);
      records += taken.records;
    }
    WindowState<V, AccumT> session = key.engine.open(merged);
    if (!accumulators.isEmpty()) {
      key.engine.setContents(session, aggregate.mergeAccumulators(accumulators), records);
    }
    // A merged session whose end the watermark has passed has closed: a record joins it late.
    session.closed = !watermark.isBefore(end);
    return session;
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
      @StateId(PROGRESS) ValueState<KV<Instant, Instant>> progress,
      @TimerFamily(DEADLINE_TIMERS) TimerMap deadlines,
      @TimerFamily(FLUSH_TIMERS) TimerMap flushes,
      MultiOutputReceiver out) {
    @Nullable WindowState<V, AccumT> session =
        sessions.get(KeyedPaneState.windowStartOf(tag)).read();
    if (session == null) {
      return;
    }
    Clock clock = new RunnerClock(flushes.get(tag));
    watermarkProgress.observe(deadlines.get(tag).getCurrentRelativeTime(), clock);
    KeyState keyState =
        new KeyState(key, sessions, progress.read(), deadlines, flushes, clock, out);
    keyState.decide(session, deadline);
    progress.write(keyState.progress());
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
