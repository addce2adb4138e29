package dev.tidemark.sql;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.AggregatePerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Runs a windowed SQL query over a {@code PCollection<Row>} on tidemark's pane engine: the rows of
 * each group and tumbling window aggregated as the query says, every record accounted for. The
 * query is the one {@code sql} takes ({@link WindowedQuery}); each element's timestamp is its event
 * time, the column {@code rowtime}.
 *
 * <pre>{@code
 * PCollectionTuple out = requests.apply(
 *     SqlPerWindow.of("requests",
 *             "SELECT host, COUNT(*) AS n, SUM(bytes) AS total FROM requests"
 *                 + " GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), host")
 *         .withAllowedLateness(Duration.standardSeconds(30)));
 * out.get(SqlPerWindow.ROWS);        // the query's columns, then timing, pane and final
 * out.get(SqlPerWindow.LATE);        // rows whose window had expired, with window and watermark
 * out.get(SqlPerWindow.DEAD_LETTER); // rows the query cannot evaluate, with the reason
 * }</pre>
 *
 * <p>The query is planned when the transform is applied, so a query it does not run fails the
 * pipeline's construction with an {@link IllegalArgumentException} that says why.
 */
public final class SqlPerWindow extends PTransform<PCollection<Row>, PCollectionTuple> {

  /**
   * Each pane's result row: the query's columns, then {@code timing}, {@code pane}, {@code final}.
   */
  public static final TupleTag<Row> ROWS = new TupleTag<Row>() {};

  /** Rows whose window had expired when they arrived, each with its window and watermark. */
  public static final TupleTag<Expired<Row>> LATE = new TupleTag<Expired<Row>>() {};

  /** Rows the query cannot take (a null field, an expression that fails), with the reason. */
  public static final TupleTag<DeadLetter> DEAD_LETTER = ParseEvents.DEAD_LETTER;

  private final String table;
  private final String query;
  private final Duration allowedLateness;
  private final @Nullable Duration idleFlush;
  private final boolean finalPaneOnly;
  private final ZoneId timeZone;

  private SqlPerWindow(
      String table,
      String query,
      Duration allowedLateness,
      @Nullable Duration idleFlush,
      boolean finalPaneOnly,
      ZoneId timeZone) {
    this.table = table;
    this.query = query;
    this.allowedLateness = allowedLateness;
    this.idleFlush = idleFlush;
    this.finalPaneOnly = finalPaneOnly;
    this.timeZone = timeZone;
  }

  /** Runs {@code query}, whose {@code FROM} names the input {@code table}. */
  public static SqlPerWindow of(String table, String query) {
    return new SqlPerWindow(table, query, Duration.ZERO, null, false, ZoneOffset.UTC);
  }

  /** How long after its end a window still takes late rows, as LATE panes. */
  public SqlPerWindow withAllowedLateness(Duration lateness) {
    return new SqlPerWindow(table, query, lateness, idleFlush, finalPaneOnly, timeZone);
  }

  /** How long the watermark may stand still before a window with rows gives an EARLY pane. */
  public SqlPerWindow withIdleFlush(Duration flush) {
    return new SqlPerWindow(table, query, allowedLateness, flush, finalPaneOnly, timeZone);
  }

  /** One row per group and window: its final pane, when the window expires. */
  public SqlPerWindow withFinalPaneOnly() {
    return new SqlPerWindow(table, query, allowedLateness, idleFlush, true, timeZone);
  }

  /**
   * The query's {@code TIMESTAMP} values ({@code rowtime}, the window's bounds, what {@code
   * DATE_FORMAT} writes) are local dates and times in {@code zone}, as Flink SQL's {@code
   * table.local-time-zone} makes them; by default UTC ({@link SqlTable#withTimeZone}).
   */
  public SqlPerWindow withTimeZone(ZoneId zone) {
    return new SqlPerWindow(table, query, allowedLateness, idleFlush, finalPaneOnly, zone);
  }

  @Override
  public PCollectionTuple expand(PCollection<Row> rows) {
    WindowedQuery planned = plan(rows.getSchema());
    Schema resultSchema = ResultRowsFn.schemaOf(planned);
    TupleTag<Event> events = new TupleTag<Event>() {};
    PCollectionTuple read =
        rows.apply(
            "RowsToEvents",
            ParDo.of(new RowsToEventsFn(planned, rows.getSchema(), events))
                .withOutputTags(events, TupleTagList.of(DEAD_LETTER)));
    EventTimeWindowing windowing = windowing(planned);
    AggregatePerWindow<EventKey, Event, List<@Nullable Object>> aggregate =
        AggregatePerWindow.of(windowing, planned.aggregate());
    PCollectionTuple decided =
        read.get(events)
            .setCoder(Event.Coder.of())
            .apply(
                "KeyByGroup",
                WithKeys.of(Event::key).withKeyType(TypeDescriptor.of(EventKey.class)))
            .setCoder(KvCoder.of(EventKey.Coder.of(), Event.Coder.of()))
            .apply("DecidePanes", aggregate);
    PCollection<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>> panes =
        decided.get(aggregate.panes());
    if (planned.ranksSessions()) {
      panes = panes.apply("RankSessions", SessionRanking.of(planned, windowing));
    }
    PCollection<Row> results =
        panes
            .apply("SelectAndHaving", ParDo.of(new ResultRowsFn(planned, resultSchema)))
            .setRowSchema(resultSchema);
    PCollection<Expired<Row>> late =
        decided
            .get(aggregate.expired())
            .apply("LateRecords", Values.create())
            .setCoder(Expired.ExpiredCoder.of(Event.Coder.of()))
            .apply("LateRows", LateRows.of(planned))
            .apply("AsRows", ParDo.of(new LateRowsFn(rows.getSchema())))
            .setCoder(Expired.ExpiredCoder.of(RowCoder.of(rows.getSchema())));
    return PCollectionTuple.of(ROWS, results)
        .and(LATE, late)
        .and(DEAD_LETTER, read.get(DEAD_LETTER).setCoder(DeadLetter.Coder.of()));
  }

  private WindowedQuery plan(Schema schema) {
    try {
      return WindowedQuery.plan(SqlTable.ofRows(table, schema).withTimeZone(timeZone), query);
    } catch (InvalidQueryException e) {
      throw new IllegalArgumentException("SqlPerWindow: " + e.getMessage(), e);
    }
  }

  private EventTimeWindowing windowing(WindowedQuery planned) {
    EventTimeWindowing windowing = planned.windows().withAllowedLateness(allowedLateness);
    if (idleFlush != null) {
      windowing = windowing.withIdleFlush(idleFlush);
    }
    return finalPaneOnly ? windowing.withFinalPaneOnly() : windowing;
  }
}
