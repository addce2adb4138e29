package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.watermark.Watermarks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.TimerMap;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The rules of session windows for one key, over the state a stateful step keeps for it: the live
 * step ({@link SessionPanesFn}) applies them to each record as it comes, judged by its input
 * watermark; a replay's step to each record in the order a live run would have seen it, judged by
 * the watermark it met at its source. {@link PaneEngine} decides each session's panes.
 *
 * <h2>A record, and the sessions it touches</h2>
 *
 * <p>A record at {@code t} opens {@code [t, t + gap)}. The key's sessions that overlap or touch it
 * (a session ending exactly where it starts too, as Flink's session windows merge) merge with it
 * into one session from the earliest start to the latest end.
 *
 * <ul>
 *   <li>It is late, with its own window, when it touches no open session and its own window has
 *       expired: it could join only sessions that have expired, and those never change again.
 *   <li>Otherwise it is counted, even when it is older than the watermark: in the session's next
 *       pane if that session is open, or, if it has closed, in a LATE pane (emitted at once live,
 *       when the session expires in a replay).
 *   <li>An expired session is gone, as in Flink SQL: a record that touches one, and whose own
 *       window has not expired, joins the open sessions it touches or opens one of its own, which
 *       may overlap the expired one. Flink SQL 1.19 gives the same sessions; its differential test
 *       in the pipelines holds tidemark to it.
 * </ul>
 *
 * <p>Before a record is judged, every session whose close or expiry its watermark has reached is
 * decided, in the order of their ends, so a record never joins a session that should have closed
 * without it.
 *
 * <h2>A session that merges after a pane of it came out</h2>
 *
 * <p>The merged session is a new window: its panes start again at index 0. Each session it took in
 * that had given a pane gets one last pane that withdraws it ({@link PaneEngine#withdrawal}),
 * naming the session it merged into, so a consumer that keeps the latest pane per (key, window)
 * ends with exactly the right sessions. With {@link EventTimeWindowing#withFinalPaneOnly()} no
 * session gives a pane before it expires, and none is ever withdrawn.
 *
 * <h2>Sessions expire in the order of their ends</h2>
 *
 * <p>A session's deadline (its close, then its expiry) is judged at its own instant, and timers
 * fire in the order of their instants, so sessions expire in the order of their ends. A session's
 * state and timers go with its final pane. The step keeps {@link #progress} across calls, the key's
 * latest decided watermark: after a restore Flink starts the input watermark again from the
 * minimum, and a closed session must stay closed.
 *
 * @param <V> a record, as the aggregate takes it
 * @param <AccumT> what the aggregate keeps
 * @param <OutputT> what a pane carries
 */
public final class KeySessions<V, AccumT, OutputT> {

  private final long gapMillis;
  private final CombineFn<V, AccumT, OutputT> aggregate;
  private final PaneEngine<V, AccumT, OutputT> engine;
  private final MapState<Instant, WindowState<V, AccumT>> sessions;
  private final TimerMap deadlines;
  private final TimerMap flushes;
  private final Consumer<PaneEngine.Pane<OutputT>> panes;
  private final @Nullable Instant progressRead;
  private Instant decidedThrough;

  /**
   * The sessions of one key.
   *
   * @param sessions each open session by its start
   * @param deadlines an event-time timer per session, tagged with its start
   * @param flushes a processing-time timer per session whose idle flush is due, tagged likewise
   * @param progress what {@link #progress} gave at the end of the key's last call, or null
   * @param panes where the panes decided go
   */
  public KeySessions(
      EventTimeWindowing windowing,
      CombineFn<V, AccumT, OutputT> aggregate,
      PaneEngine<V, AccumT, OutputT> engine,
      MapState<Instant, WindowState<V, AccumT>> sessions,
      TimerMap deadlines,
      TimerMap flushes,
      @Nullable Instant progress,
      Consumer<PaneEngine.Pane<OutputT>> panes) {
    this.gapMillis = windowing.kind().size().getMillis();
    this.aggregate = aggregate;
    this.engine = engine;
    this.sessions = sessions;
    this.deadlines = deadlines;
    this.flushes = flushes;
    this.panes = panes;
    this.progressRead = progress;
    this.decidedThrough = progress == null ? Watermarks.MIN : progress;
  }

  /** The key's latest decided watermark, to keep. */
  public Instant progress() {
    return decidedThrough;
  }

  /**
   * Whether {@link #progress} moved since it was read: a record that decides nothing leaves it, and
   * the step need not write it.
   */
  public boolean progressMoved() {
    return !progress().equals(progressRead);
  }

  /** The key's latest decided watermark: a live record is judged by no earlier one. */
  public Instant decidedThrough() {
    return decidedThrough;
  }

  /**
   * Adds {@code value}, of {@code eventTime}, judged by {@code watermark}: null when it is counted,
   * else the window it would have opened, which it missed.
   */
  public @Nullable IntervalWindow add(V value, Instant eventTime, Instant watermark) {
    List<WindowState<V, AccumT>> open = new ArrayList<>();
    for (WindowState<V, AccumT> session : openSessions()) {
      // A deadline due at this watermark may not have been decided yet: its panes come first.
      if (watermark.isBefore(session.windowEnd()) || decide(session, watermark)) {
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
    if (touched.isEmpty() && engine.arrival(own, watermark) == Arrival.EXPIRED) {
      return own;
    }
    WindowState<V, AccumT> session = sessionOf(own, touched, watermark);
    IntervalWindow window = new IntervalWindow(session.windowStart(), session.windowEnd());
    if (engine.arrival(session, window, watermark) == Arrival.ON_TIME) {
      boolean wasArmed = KeyedPaneState.flushArmed(session);
      engine.addOnTime(session, value);
      KeyedPaneState.armFlush(session, wasArmed, flushes);
    } else {
      emit(engine.addLateWithinLateness(session, value));
    }
    sessions.put(session.windowStart(), session);
    deadlines.set(
        KeyedPaneState.tag(session.windowStart()), KeyedPaneState.nextDeadline(engine, session));
    return null;
  }

  /**
   * The deadline of the session that starts at {@code start}, at its own instant: its close, or its
   * expiry; nothing if the session merged into another since.
   */
  public void onDeadline(Instant start, Instant deadline) {
    @Nullable WindowState<V, AccumT> session = sessions.get(start).read();
    if (session != null) {
      decide(session, deadline);
    }
  }

  /** The key's open sessions, the earliest end first. */
  private List<WindowState<V, AccumT>> openSessions() {
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
  private boolean decide(WindowState<V, AccumT> session, Instant watermark) {
    boolean wasArmed = KeyedPaneState.flushArmed(session);
    emit(engine.onWatermark(session, watermark));
    decidedThrough = Watermarks.latest(decidedThrough, watermark);
    String tag = KeyedPaneState.tag(session.windowStart());
    if (KeyedPaneState.storeOrRelease(session, wasArmed, sessions, flushes)) {
      deadlines.set(tag, KeyedPaneState.nextDeadline(engine, session));
      return true;
    }
    deadlines.get(tag).clear();
    return false;
  }

  /**
   * The session a record with window {@code own} joins: the one it lies in, or a new one merged
   * from it and every session it touches, each of which that gave a pane withdrawn.
   */
  private WindowState<V, AccumT> sessionOf(
      IntervalWindow own, List<WindowState<V, AccumT>> touched, Instant watermark) {
    if (touched.size() == 1 && !touched.get(0).windowStart().isAfter(own.start())) {
      WindowState<V, AccumT> session = touched.get(0);
      if (!session.windowEnd().isBefore(own.end())) {
        return session;
      }
      if (session.panesEmitted == 0 && !session.closed) {
        // It grows at its end, and no pane of the smaller session came out: nothing to withdraw,
        // and its state, key and timers stay; only the deadline moves.
        session.windowEnd = own.end();
        return session;
      }
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
    List<V> heldLate = new ArrayList<>();
    for (WindowState<V, AccumT> taken : touched) {
      if (taken.panesEmitted > 0) {
        emit(List.of(engine.withdrawal(taken, merged)));
      }
      forget(taken);
      accumulators.add(taken.accumulated);
      records += taken.records;
      heldLate.addAll(taken.heldLate);
    }
    WindowState<V, AccumT> session = engine.open(merged);
    if (!accumulators.isEmpty()) {
      engine.setContents(session, aggregate.mergeAccumulators(accumulators), records);
    }
    session.heldLate.addAll(heldLate);
    // A merged session whose end the watermark has passed has closed: a record joins it late.
    session.closed = !watermark.isBefore(end);
    return session;
  }

  /** Forgets {@code session}, merged into another: its state and timers go. */
  private void forget(WindowState<V, AccumT> session) {
    String tag = KeyedPaneState.tag(session.windowStart());
    sessions.remove(session.windowStart());
    deadlines.get(tag).clear();
    if (KeyedPaneState.flushArmed(session)) {
      flushes.get(tag).clear();
    }
  }

  private void emit(List<PaneEngine.Pane<OutputT>> decided) {
    decided.forEach(panes);
  }
}
