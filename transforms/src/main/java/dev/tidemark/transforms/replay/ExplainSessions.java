package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.replay.ReplayTimeline.Pane;
import dev.tidemark.transforms.replay.ReplayTimeline.SessionMerge;
import dev.tidemark.transforms.replay.ReplayTimeline.WindowClose;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.KeySessions;
import dev.tidemark.transforms.windowing.KeyedPaneState;
import dev.tidemark.transforms.windowing.PaneEngine;
import dev.tidemark.transforms.windowing.WindowState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The sessions of a recording's keys as {@link ExplainReplay} walks it: {@link KeySessions}' own
 * rules, applied to each record in arrival order with the watermark it met, as {@link
 * ReplaySessionsFn} applies them, over state held in memory ({@link InMemoryKeyState}). The
 * sessions' deadlines are fired here in the order of their instants, across keys, each before the
 * records that met a watermark at or past it, as the replay's timers fire; so the walk knows after
 * which line each session closed, and which sessions a record merged.
 */
final class ExplainSessions {

  /** What a record did: the window it missed when it was late, and whether it joined late. */
  record Judged(@Nullable IntervalWindow missed, boolean lateWithinLateness) {}

  /** A deadline set by a key's sessions: its instant, and the timer it is. */
  private record Deadline(Instant at, String key, String tag) {}

  /** One key's sessions, timers and progress. */
  private final class Key {
    final String name;
    final InMemoryKeyState<Instant, WindowState<Long, KV<Long, Long>>> state =
        new InMemoryKeyState<>();
    final Map<String, Instant> deadlines = new HashMap<>();

    /** Each session's first line, by its start. */
    final Map<Instant, Long> firstLines = new HashMap<>();

    @Nullable Instant progress;

    Key(String name) {
      this.name = name;
    }

    KeySessions<Long, KV<Long, Long>, KV<Long, Long>> rules() {
      return new KeySessions<>(
          windowing,
          aggregate,
          engine,
          state.map(),
          InMemoryKeyState.timers(
              (tag, at) -> {
                deadlines.put(tag, at);
                due.add(new Deadline(at, name, tag));
              },
              deadlines::remove),
          // A walk through a recording is never idle: no EARLY pane, as in a replay of a file.
          InMemoryKeyState.timers((tag, at) -> {}, tag -> {}),
          progress,
          decided -> panes.add(pane(name, decided)));
    }
  }

  private final EventTimeWindowing windowing;
  private final CombineFn<Long, KV<Long, Long>, KV<Long, Long>> aggregate;
  private final PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine;
  private final Map<String, Key> keys = new TreeMap<>();
  private final PriorityQueue<Deadline> due =
      new PriorityQueue<>(
          Comparator.comparing(Deadline::at)
              .thenComparing(Deadline::key)
              .thenComparing(Deadline::tag));
  private final List<Pane> panes = new ArrayList<>();
  private final List<SessionMerge> merges = new ArrayList<>();
  private final List<WindowClose> closed;

  /** The sessions of {@code windowing}, each added to {@code closed} when it closes. */
  ExplainSessions(
      EventTimeWindowing windowing,
      CombineFn<Long, KV<Long, Long>, KV<Long, Long>> aggregate,
      PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine,
      List<WindowClose> closed) {
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.engine = engine;
    this.closed = closed;
  }

  /** Applies the record at {@code line} of {@code key}, which met {@code watermark}. */
  Judged add(long line, String key, Instant eventTime, Instant watermark) {
    Key sessions = keys.computeIfAbsent(key, Key::new);
    Map<Instant, Instant> before = bounds(sessions);
    KeySessions<Long, KV<Long, Long>, KV<Long, Long>> rules = sessions.rules();
    @Nullable IntervalWindow missed = rules.add(line, eventTime, watermark);
    sessions.progress = rules.progress();
    if (missed != null) {
      return new Judged(missed, false);
    }
    WindowState<Long, KV<Long, Long>> joined = sessionHolding(sessions, eventTime);
    Map<Instant, Instant> after = bounds(sessions);
    List<IntervalWindow> mergedAway = new ArrayList<>();
    long firstLine = line;
    for (Map.Entry<Instant, Instant> session : before.entrySet()) {
      if (!session.getValue().equals(after.get(session.getKey()))) {
        mergedAway.add(new IntervalWindow(session.getKey(), session.getValue()));
        firstLine = Math.min(firstLine, sessions.firstLines.remove(session.getKey()));
      }
    }
    sessions.firstLines.merge(joined.windowStart(), firstLine, Math::min);
    boolean bornClosed = !before.containsKey(joined.windowStart()) || !mergedAway.isEmpty();
    if (bornClosed && !watermark.isBefore(joined.windowEnd())) {
      // Merged from closed sessions by a record late within the lateness: closed from the start.
      closed.add(close(sessions, joined, line, false, watermark));
    }
    // A session the record only made longer took in no other: that is no merge.
    if (mergedAway.size() > 1) {
      mergedAway.sort(Comparator.comparing(IntervalWindow::start));
      merges.add(
          new SessionMerge(
              line, key, mergedAway, new IntervalWindow(joined.windowStart(), joined.windowEnd())));
    }
    return new Judged(null, !watermark.isBefore(joined.windowEnd()));
  }

  /**
   * Fires every deadline at or before {@code watermark}, in the order of their instants; each
   * session that closes is added to the closed windows, after line {@code afterLine}.
   */
  void closeThrough(Instant watermark, long afterLine, boolean byIdleRule) {
    while (!due.isEmpty() && !due.peek().at().isAfter(watermark)) {
      Deadline deadline = due.poll();
      Key sessions = keys.get(deadline.key());
      if (!deadline.at().equals(sessions.deadlines.get(deadline.tag()))) {
        continue;
      }
      sessions.deadlines.remove(deadline.tag());
      Instant start = KeyedPaneState.windowStartOf(deadline.tag());
      @Nullable WindowState<Long, KV<Long, Long>> session = sessions.state.contents().get(start);
      if (session != null && deadline.at().equals(session.windowEnd())) {
        closed.add(close(sessions, session, afterLine, byIdleRule, watermark));
      }
      KeySessions<Long, KV<Long, Long>, KV<Long, Long>> rules = sessions.rules();
      rules.onDeadline(start, deadline.at());
      sessions.progress = rules.progress();
    }
  }

  /** Every pane given so far, the final ones of every session once all have expired. */
  List<Pane> panes() {
    return panes;
  }

  /** Every merge of two or more sessions, in the order of the lines that made them. */
  List<SessionMerge> merges() {
    return merges;
  }

  private static WindowClose close(
      Key sessions,
      WindowState<Long, KV<Long, Long>> session,
      long afterLine,
      boolean byIdleRule,
      Instant watermark) {
    return new WindowClose(
        session.windowStart(),
        session.windowEnd(),
        afterLine,
        byIdleRule,
        watermark,
        session.records(),
        sessions.name,
        sessions.firstLines.getOrDefault(session.windowStart(), afterLine));
  }

  private static Map<Instant, Instant> bounds(Key sessions) {
    Map<Instant, Instant> bounds = new HashMap<>();
    sessions.state.contents().forEach((start, session) -> bounds.put(start, session.windowEnd()));
    return bounds;
  }

  private static WindowState<Long, KV<Long, Long>> sessionHolding(Key sessions, Instant time) {
    for (WindowState<Long, KV<Long, Long>> session : sessions.state.contents().values()) {
      if (!time.isBefore(session.windowStart()) && time.isBefore(session.windowEnd())) {
        return session;
      }
    }
    throw new IllegalStateException("a record counted in no session of its key at " + time);
  }

  private static Pane pane(String key, PaneEngine.Pane<KV<Long, Long>> decided) {
    return new Pane(
        key,
        decided.pane().windowStart(),
        decided.pane().windowEnd(),
        decided.pane().timing(),
        decided.pane().index(),
        decided.pane().isFinal(),
        decided.value().getKey());
  }
}
