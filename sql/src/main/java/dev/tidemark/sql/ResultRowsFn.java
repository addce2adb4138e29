package dev.tidemark.sql;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Makes each pane of a query's groups its result {@link Row}: the query's columns (a {@code
 * TIMESTAMP} as Beam's {@code DATETIME}), then {@code timing}, {@code pane} and {@code final}, and
 * {@code merged_into_start} and {@code merged_into_end}: null, but for the row of a session that
 * merged into another after a row of it came out, the merged session's bounds; that row withdraws
 * the session's earlier rows. A pane that {@code HAVING} filters out, or of the rows {@code WHERE}
 * filtered out, has no row.
 */
final class ResultRowsFn extends DoFn<KV<EventKey, KV<WindowPane, List<@Nullable Object>>>, Row> {

  private static final long serialVersionUID = 1L;

  /** The columns a row has after the query's own: its pane's. */
  private static final List<String> PANE_COLUMNS =
      List.of("timing", "pane", "final", "merged_into_start", "merged_into_end");

  private final WindowedQuery query;
  private final Schema schema;
  private final Counter resultsOut = TidemarkMetrics.resultsOut();

  ResultRowsFn(WindowedQuery query, Schema schema) {
    this.query = query;
    this.schema = schema;
  }

  /** The schema of {@code query}'s result rows. */
  static Schema schemaOf(WindowedQuery query) {
    Schema.Builder schema = Schema.builder();
    for (int c = 0; c < query.resultNames().size(); c++) {
      schema.addNullableField(query.resultNames().get(c), query.resultType(c).beamType());
    }
    for (String pane : PANE_COLUMNS) {
      if (query.resultNames().contains(pane)) {
        throw new IllegalArgumentException(
            "SqlPerWindow: a result column may not be named " + pane + ": the row's pane is");
      }
    }
    return schema
        .addStringField("timing")
        .addInt64Field("pane")
        .addBooleanField("final")
        .addNullableField("merged_into_start", Schema.FieldType.DATETIME)
        .addNullableField("merged_into_end", Schema.FieldType.DATETIME)
        .build();
  }

  @ProcessElement
  public void process(
      @Element KV<EventKey, KV<WindowPane, List<@Nullable Object>>> pane, OutputReceiver<Row> out) {
    WindowPane window = pane.getValue().getKey();
    for (WindowedQuery.ResultRow result :
        query.results(pane.getKey(), window, pane.getValue().getValue())) {
      out.output(row(result.values(), result.pane()));
    }
  }

  private Row row(Object[] values, WindowPane window) {
    Row.Builder row = Row.withSchema(schema);
    for (int c = 0; c < values.length; c++) {
      Object value = values[c];
      row.addValue(
          value != null && query.resultType(c) == ColumnType.TIMESTAMP
              ? new Instant((Long) value)
              : value);
    }
    @Nullable IntervalWindow mergedInto = window.mergedInto();
    resultsOut.inc();
    return row.addValues(
            window.timing().name(),
            window.index(),
            window.isFinal(),
            mergedInto == null ? null : mergedInto.start(),
            mergedInto == null ? null : mergedInto.end())
        .build();
  }
}
