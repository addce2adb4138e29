package dev.tidemark.sql;

import dev.tidemark.transforms.model.ColumnValuesCoder;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The stateful step of {@link SessionRanking}, keyed by a partition and a session end: keeps the
 * latest pane of each group whose session ends there, and gives the partition's pane of them, whose
 * value is each group's key parts, its session's start and its aggregates, group after group, as
 * {@link WindowRanking} reads it. Each ranked row is in its own session's window.
 *
 * <h2>Which sessions rank together</h2>
 *
 * <p>Flink SQL 1.19 knows a window by its end alone: its window Top-N over a session aggregate
 * ranks together the groups whose sessions end at the same instant, whatever their starts, although
 * the query partitions by {@code window_start} too. A pasted query gives the same rows here. (The
 * finding is in {@code docs/upstream-findings.md}.)
 *
 * <h2>When a ranking comes out</h2>
 *
 * <p>A ranking must not come out before every group's pane of the same kind is here. The pane step
 * gives a session's ON_TIME pane at an event-time deadline at its end, and its final pane at one at
 * its expiry ({@link EventTimeWindowing#expiresAt}), the same instants for every session that ends
 * at the same one, and it holds its output watermark at a deadline until the deadline fired. So
 * this step sets its own event-time timer a millisecond after each of those deadlines: when it
 * fires, every group's pane from that deadline has come.
 *
 * <ul>
 *   <li>A group's ON_TIME pane that is not final waits for the closing timer, which gives one
 *       ON_TIME ranking of every group.
 *   <li>A group's final pane waits for the expiry timer, which gives the final ranking, LATE if a
 *       group's was, and then the state goes. With {@code --emit=final} this is the only one.
 *   <li>An EARLY pane (an idle flush, which no watermark decides) or a LATE one (a late record
 *       within the allowed lateness, given at once) ranks the groups at once, as they are then.
 *   <li>A pane that withdraws a group's session, which merged into a larger one, takes the group
 *       out and ranks the rest at once; the group's larger session is ranked under its own end.
 * </ul>
 *
 * <h2>Rows that a later ranking does not replace</h2>
 *
 * <p>A row is known by the partition, its rank, and its session's bounds. When a ranking has a row
 * that the next one does not replace (a group left, or the group at a rank has another start), the
 * rows of the earlier ranking are withdrawn first, so that a store that keeps the latest row per
 * key deletes them; when the last group leaves, they are withdrawn for good.
 *
 * <p>The final ranking is the same on every runner and at any parallelism: it depends only on each
 * group's final pane. An EARLY or LATE ranking holds the groups' panes that came before it.
 */
final class RankSessionGroupsFn
    extends DoFn<
        KV<EventKey, KV<EventKey, KV<WindowPane, List<@Nullable Object>>>>,
        KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> {

  private static final long serialVersionUID = 1L;

  private static final String GROUPS = "groups";
  private static final String PANES = "panes";
  private static final String SHOWN = "shown";
  private static final String CLOSE = "close";
  private static final String EXPIRY = "expiry";

  /** The latest pane of each group in the session, by the group's key. */
  @StateId(GROUPS)
  private final StateSpec<MapState<EventKey, KV<WindowPane, List<@Nullable Object>>>> groupsSpec =
      StateSpecs.map(
          EventKey.Coder.of(), KvCoder.of(WindowPane.Coder.of(), ColumnValuesCoder.of()));

  /** The partition's latest pane that came out, whose rows a later one may have to withdraw. */
  @StateId(SHOWN)
  private final StateSpec<ValueState<KV<WindowPane, List<@Nullable Object>>>> shownSpec =
      StateSpecs.value(KvCoder.of(WindowPane.Coder.of(), ColumnValuesCoder.of()));

  /** How many panes of the partition and end came out. */
  @StateId(PANES)
  private final StateSpec<ValueState<Long>> panesSpec = StateSpecs.value(VarLongCoder.of());

  @TimerId(CLOSE)
  private final TimerSpec closeSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  @TimerId(EXPIRY)
  private final TimerSpec expirySpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  /** Key parts in their order, {@code NULL} first. */
  private static final Comparator<@Nullable String> PART =
      Comparator.nullsFirst(Comparator.naturalOrder());

  /** Group keys in the order of their parts, a {@code NULL} part first. */
  private static final Comparator<EventKey> BY_PARTS =
      (one, other) -> {
        for (int p = 0; p < Math.min(one.size(), other.size()); p++) {
          int order = PART.compare(one.part(p), other.part(p));
          if (order != 0) {
            return order;
          }
        }
        return Integer.compare(one.size(), other.size());
      };

  private final WindowedQuery query;
  private final EventTimeWindowing windowing;

  RankSessionGroupsFn(WindowedQuery query, EventTimeWindowing windowing) {
    this.query = query;
    this.windowing = windowing;
  }

  /** This step's key of a pane of {@code window} in {@code partition}: its parts, then its end. */
  static EventKey keyOf(EventKey partition, WindowPane window) {
    List<@Nullable String> parts = new ArrayList<>(partition.parts());
    parts.add(Long.toString(window.windowEnd().getMillis()));
    return EventKey.withNulls(parts.toArray(new String[0]));
  }

  @ProcessElement
  public void processElement(
      @Element KV<EventKey, KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> element,
      @Timestamp Instant timestamp,
      @StateId(GROUPS) MapState<EventKey, KV<WindowPane, List<@Nullable Object>>> groups,
      @StateId(SHOWN) ValueState<KV<WindowPane, List<@Nullable Object>>> shown,
      @StateId(PANES) ValueState<Long> panes,
      @TimerId(CLOSE) Timer close,
      @TimerId(EXPIRY) Timer expiry,
      OutputReceiver<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> out) {
    EventKey group = element.getValue().getKey();
    KV<WindowPane, List<@Nullable Object>> groupPane = element.getValue().getValue();
    WindowPane pane = groupPane.getKey();
    Ranking ranking = new Ranking(element.getKey(), groups, shown, panes, out);
    if (pane.isWithdrawn()) {
      if (groups.get(group).read() != null) {
        groups.remove(group);
        if (!ranking.rankAnew(pane.timing(), false, pane.mergedInto())) {
          ranking.withdrawForGood(pane.timing(), pane.mergedInto());
          close.clear();
          expiry.clear();
        }
      }
      return;
    }
    groups.put(group, groupPane);
    IntervalWindow window = new IntervalWindow(pane.windowStart(), pane.windowEnd());
    if (pane.isFinal()) {
      // The pane step's expiry deadline is a millisecond after expiresAt.
      expiry.set(fireAt(windowing.expiresAt(window).getMillis() + 2, timestamp));
    } else if (pane.timing() == Timing.ON_TIME) {
      // The pane step's closing deadline is at the session's end.
      close.set(fireAt(window.end().getMillis() + 1, timestamp));
    } else {
      ranking.rankAnew(pane.timing(), false, null);
    }
  }

  /**
   * The instant {@code millis}, or {@code timestamp} if it is later: a timer never fires behind it.
   */
  private static Instant fireAt(long millis, Instant timestamp) {
    Instant target = Watermarks.earliest(new Instant(millis), GlobalWindow.INSTANCE.maxTimestamp());
    return Watermarks.latest(target, timestamp);
  }

  /** Every group's ON_TIME pane has come: the ranking of them. */
  @OnTimer(CLOSE)
  public void onClose(
      @Key EventKey key,
      @StateId(GROUPS) MapState<EventKey, KV<WindowPane, List<@Nullable Object>>> groups,
      @StateId(SHOWN) ValueState<KV<WindowPane, List<@Nullable Object>>> shown,
      @StateId(PANES) ValueState<Long> panes,
      OutputReceiver<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> out) {
    new Ranking(key, groups, shown, panes, out).rankAnew(Timing.ON_TIME, false, null);
  }

  /** Every group's final pane has come: the final ranking, LATE if a group's was; state goes. */
  @OnTimer(EXPIRY)
  public void onExpiry(
      @Key EventKey key,
      @StateId(GROUPS) MapState<EventKey, KV<WindowPane, List<@Nullable Object>>> groups,
      @StateId(SHOWN) ValueState<KV<WindowPane, List<@Nullable Object>>> shown,
      @StateId(PANES) ValueState<Long> panes,
      @TimerId(CLOSE) Timer close,
      OutputReceiver<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> out) {
    Timing timing = Timing.ON_TIME;
    for (KV<WindowPane, List<@Nullable Object>> pane : groups.values().read()) {
      if (pane.getKey().timing() == Timing.LATE) {
        timing = Timing.LATE;
      }
    }
    new Ranking(key, groups, shown, panes, out).rankAnew(timing, true, null);
    groups.clear();
    shown.clear();
    panes.clear();
    close.clear();
  }

  /** The ranking of one partition and session end, over this step's state for it. */
  private final class Ranking {
    private final EventKey partition;
    private final MapState<EventKey, KV<WindowPane, List<@Nullable Object>>> groups;
    private final ValueState<KV<WindowPane, List<@Nullable Object>>> shown;
    private final ValueState<Long> panes;
    private final OutputReceiver<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> out;

    Ranking(
        EventKey key,
        MapState<EventKey, KV<WindowPane, List<@Nullable Object>>> groups,
        ValueState<KV<WindowPane, List<@Nullable Object>>> shown,
        ValueState<Long> panes,
        OutputReceiver<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> out) {
      this.partition =
          EventKey.withNulls(key.parts().subList(0, key.size() - 1).toArray(new String[0]));
      this.groups = groups;
      this.shown = shown;
      this.panes = panes;
      this.out = out;
    }

    /**
     * Gives the ranking of the groups as they are, after withdrawing the rows of the one shown
     * before if it does not replace each of them, as merged into {@code mergedInto} (a group's
     * larger session), or into the new ranking's window; false, and nothing, if no group is left.
     */
    boolean rankAnew(Timing timing, boolean isFinal, @Nullable IntervalWindow mergedInto) {
      Map<EventKey, KV<WindowPane, List<@Nullable Object>>> current = new TreeMap<>(BY_PARTS);
      for (Map.Entry<EventKey, KV<WindowPane, List<@Nullable Object>>> entry :
          groups.entries().read()) {
        current.put(entry.getKey(), entry.getValue());
      }
      if (current.isEmpty()) {
        return false;
      }
      Instant start = null;
      List<@Nullable Object> values = new ArrayList<>();
      for (Map.Entry<EventKey, KV<WindowPane, List<@Nullable Object>>> group : current.entrySet()) {
        WindowPane pane = group.getValue().getKey();
        start = start == null ? pane.windowStart() : Watermarks.earliest(start, pane.windowStart());
        for (int k = 0; k < query.groupKeyCount(); k++) {
          values.add(group.getKey().part(k));
        }
        values.add(pane.windowStart().getMillis());
        values.addAll(group.getValue().getValue());
      }
      WindowPane end = current.values().iterator().next().getKey();
      WindowPane pane = new WindowPane(start, end.windowEnd(), timing, 0, isFinal);
      @Nullable KV<WindowPane, List<@Nullable Object>> before = shown.read();
      if (before != null && !rowKeys(pane, values).containsAll(rowKeys(before))) {
        output(
            before.getKey(),
            before.getValue(),
            timing,
            false,
            mergedInto != null ? mergedInto : new IntervalWindow(start, end.windowEnd()));
      }
      output(pane, values, timing, isFinal, null);
      shown.write(KV.of(pane, values));
      return true;
    }

    /** Withdraws the rows shown last, for good: no group is left. */
    void withdrawForGood(Timing timing, @Nullable IntervalWindow mergedInto) {
      @Nullable KV<WindowPane, List<@Nullable Object>> before = shown.read();
      if (before != null) {
        output(before.getKey(), before.getValue(), timing, true, mergedInto);
      }
      shown.clear();
      panes.clear();
    }

    private Set<List<@Nullable Object>> rowKeys(KV<WindowPane, List<@Nullable Object>> pane) {
      return rowKeys(pane.getKey(), pane.getValue());
    }

    /** What each row of a ranking is known by: its key (partition and rank) and its start. */
    private Set<List<@Nullable Object>> rowKeys(WindowPane pane, List<@Nullable Object> values) {
      Set<List<@Nullable Object>> keys = new HashSet<>();
      for (WindowedQuery.ResultRow row : query.results(partition, pane, values)) {
        List<@Nullable Object> key = new ArrayList<>(row.keyValues());
        key.add(row.pane().windowStart());
        keys.add(key);
      }
      return keys;
    }

    private void output(
        WindowPane pane,
        List<@Nullable Object> values,
        Timing timing,
        boolean isFinal,
        @Nullable IntervalWindow mergedInto) {
      @Nullable Long emitted = panes.read();
      long index = emitted == null ? 0 : emitted;
      WindowPane numbered =
          new WindowPane(pane.windowStart(), pane.windowEnd(), timing, index, isFinal, mergedInto);
      out.output(KV.of(partition, KV.of(numbered, values)));
      panes.write(index + 1);
    }
  }
}
