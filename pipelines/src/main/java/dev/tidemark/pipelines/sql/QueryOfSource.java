package dev.tidemark.pipelines.sql;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.io.PaneRules;
import dev.tidemark.pipelines.io.Source;
import dev.tidemark.pipelines.io.SourceRead;
import dev.tidemark.pipelines.steps.CountsOfSource;
import dev.tidemark.sql.LateRows;
import dev.tidemark.sql.SessionRanking;
import dev.tidemark.sql.SqlRecordFormat;
import dev.tidemark.sql.WindowedQuery;
import dev.tidemark.transforms.model.ColumnValuesCoder;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.replay.AggregateReplayPerWindow;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.windowing.AggregatePerWindow;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A source's records grouped and aggregated by a query, per key and window, on the pane engine:
 * {@link #PANES}, {@code CountPerWindow.LATE} and {@code ParseEvents.DEAD_LETTER}. The rules that
 * decide the panes are chosen as for {@code count} ({@link CountsOfSource}): a recording's by the
 * replay, a live source's by the live rules, a Kafka topic's batches gathered before the shuffle.
 */
public final class QueryOfSource extends PTransform<PBegin, PCollectionTuple> {

  /** Each pane of each group: its key, the pane, and its aggregates' values. */
  public static final TupleTag<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> PANES =
      new TupleTag<>() {};

  private final Source source;
  private final SqlRecordFormat format;
  private final EventTimeSettings eventTime;
  private final EventTimeWindowing windowing;

  public QueryOfSource(
      Source source,
      SqlRecordFormat format,
      EventTimeSettings eventTime,
      EventTimeWindowing windowing) {
    this.source = source;
    this.format = format;
    this.eventTime = eventTime;
    this.windowing = windowing;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    WindowedQuery query = format.query();
    Optional<Replay> replay = source.replay(format, eventTime);
    PaneRules.log(List.of(source), replay.isPresent(), windowing, eventTime);
    if (replay.isPresent()) {
      AggregateReplayPerWindow<List<@Nullable Object>> aggregate =
          replay.get().aggregatePerWindow(windowing, query.aggregate(), ColumnValuesCoder.of());
      PCollectionTuple decided = begin.apply("ReplayAndDecidePanes", aggregate);
      return PCollectionTuple.of(PANES, ranked(query, decided.get(aggregate.panes())))
          .and(
              CountPerWindow.LATE,
              decided.get(CountPerWindow.LATE).apply("LateRows", LateRows.of(query)))
          .and(ParseEvents.DEAD_LETTER, decided.get(ParseEvents.DEAD_LETTER));
    }
    AggregatePerWindow<EventKey, Event, List<@Nullable Object>> aggregate =
        AggregatePerWindow.of(windowing, query.aggregate());
    SourceRead read = source.read(format, eventTime);
    PCollectionTuple decided;
    PCollection<DeadLetter> dead;
    if (read instanceof SourceRead.Batches<?> batches) {
      decided = decideBatches(begin, batches, aggregate);
      dead = decided.get(ParseEvents.DEAD_LETTER);
    } else {
      PCollectionTuple parsed = begin.apply("ReadAndParse", read.events());
      decided =
          parsed
              .get(ParseEvents.EVENTS)
              .apply(
                  "KeyByGroup",
                  WithKeys.of(Event::key).withKeyType(TypeDescriptor.of(EventKey.class)))
              .setCoder(KvCoder.of(EventKey.Coder.of(), Event.Coder.of()))
              .apply("DecidePanes", aggregate);
      dead = parsed.get(ParseEvents.DEAD_LETTER);
    }
    PCollection<Expired<Event>> late =
        decided
            .get(aggregate.expired())
            .apply("LateRecords", Values.create())
            .setCoder(Expired.ExpiredCoder.of(Event.Coder.of()))
            .apply("LateRows", LateRows.of(query));
    return PCollectionTuple.of(PANES, ranked(query, decided.get(aggregate.panes())))
        .and(CountPerWindow.LATE, late)
        .and(ParseEvents.DEAD_LETTER, dead);
  }

  /**
   * The panes a query's results are made of: the pane step's, or, for a window Top-N over a session
   * aggregate, the partitions' panes of the sessions with the same bounds.
   */
  private PCollection<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> ranked(
      WindowedQuery query,
      PCollection<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> panes) {
    return query.ranksSessions()
        ? panes.apply("RankSessions", SessionRanking.of(query, windowing))
        : panes;
  }

  private static <RecordT> PCollectionTuple decideBatches(
      PBegin begin,
      SourceRead.Batches<RecordT> batches,
      AggregatePerWindow<EventKey, Event, List<@Nullable Object>> aggregate) {
    return begin
        .apply("ReadAndParse", batches.batches())
        .apply(
            "DecidePanes",
            aggregate.ofBatchesParsedBy(
                batches.parser(),
                Event.Coder.of(),
                Event::key,
                EventKey.Coder.of(),
                ParseEvents.DEAD_LETTER,
                DeadLetter.Coder.of()));
  }
}
