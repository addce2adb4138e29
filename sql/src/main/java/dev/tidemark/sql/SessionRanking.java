package dev.tidemark.sql;

import dev.tidemark.transforms.model.ColumnValuesCoder;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A window Top-N over a session aggregate, as Flink SQL 1.19 ranks it: the groups of a partition
 * whose sessions end at the same instant are ranked together. The pane step keeps each group's
 * sessions apart ({@link WindowedQuery#ranksSessions}); this step takes its panes, one per group
 * and session, and gives one pane per partition and session end, whose value holds the latest
 * aggregate of each group in it, as the ranking reads it ({@link RankSessionGroupsFn} says when,
 * and why by the end alone).
 *
 * <pre>{@code
 * PCollection<KV<EventKey, KV<WindowPane, List<Object>>>> groupPanes = ...; // the pane step's
 * PCollection<KV<EventKey, KV<WindowPane, List<Object>>>> partitionPanes =
 *     groupPanes.apply(SessionRanking.of(query));
 * }</pre>
 */
public final class SessionRanking
    extends PTransform<
        PCollection<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>>,
        PCollection<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>>> {

  private final WindowedQuery query;
  private final EventTimeWindowing windowing;

  private SessionRanking(WindowedQuery query, EventTimeWindowing windowing) {
    this.query = query;
    this.windowing = windowing;
  }

  /**
   * The step of {@code query}, which {@link WindowedQuery#ranksSessions ranks sessions}, after a
   * pane step whose sessions are {@code windowing}'s.
   */
  public static SessionRanking of(WindowedQuery query, EventTimeWindowing windowing) {
    if (!query.ranksSessions()) {
      throw new IllegalArgumentException("the query does not rank a session aggregate's groups");
    }
    return new SessionRanking(query, windowing);
  }

  @Override
  public PCollection<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> expand(
      PCollection<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> groupPanes) {
    KvCoder<WindowPane, List<@Nullable Object>> paneCoder =
        KvCoder.of(WindowPane.Coder.of(), ColumnValuesCoder.of());
    return groupPanes
        // The records WHERE filtered out have sessions of their own, in no result.
        .apply("LeaveOutTheFiltered", Filter.by(pane -> !query.isFiltered(pane.getKey())))
        .apply(
            "KeyByPartitionAndEnd",
            MapElements.into(
                    new TypeDescriptor<
                        KV<EventKey, KV<EventKey, KV<WindowPane, List<@Nullable Object>>>>>() {})
                .via(
                    (KV<EventKey, KV<WindowPane, List<@Nullable Object>>> pane) ->
                        KV.of(
                            RankSessionGroupsFn.keyOf(
                                query.partitionOf(pane.getKey()), pane.getValue().getKey()),
                            pane)))
        .setCoder(KvCoder.of(EventKey.Coder.of(), KvCoder.of(EventKey.Coder.of(), paneCoder)))
        .apply("RankGroupsOfTheSameSession", ParDo.of(new RankSessionGroupsFn(query, windowing)))
        .setCoder(KvCoder.of(EventKey.Coder.of(), paneCoder));
  }
}
