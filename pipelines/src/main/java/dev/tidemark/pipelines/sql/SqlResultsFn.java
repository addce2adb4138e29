package dev.tidemark.pipelines.sql;

import dev.tidemark.pipelines.steps.JsonLines;
import dev.tidemark.sql.WindowedQuery;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Makes each pane of a query's groups its result row, by the query's {@code SELECT} list and {@code
 * HAVING}: the row as a JSON line (the query's columns, then {@code timing}, {@code pane} and
 * {@code final}, and {@code mergedInto} for a session's row that withdraws it) keyed by its record
 * key (the {@code GROUP BY} columns, or a window Top-N's partition and rank, and the window's start
 * and end, the same for every pane of a window: cumulating windows share starts, a grown session
 * keeps its start) and whether it withdraws that key. A pane that {@code HAVING} filters out, or of
 * the records {@code WHERE} filtered out, has no row.
 */
public final class SqlResultsFn
    extends DoFn<
        KV<EventKey, KV<WindowPane, List<@Nullable Object>>>, KV<KV<String, Boolean>, String>> {

  private static final long serialVersionUID = 1L;

  private final WindowedQuery query;

  public SqlResultsFn(WindowedQuery query) {
    this.query = query;
  }

  @ProcessElement
  public void process(
      @Element KV<EventKey, KV<WindowPane, List<@Nullable Object>>> pane,
      OutputReceiver<KV<KV<String, Boolean>, String>> out) {
    EventKey key = pane.getKey();
    WindowPane window = pane.getValue().getKey();
    for (WindowedQuery.ResultRow row : query.results(key, window, pane.getValue().getValue())) {
      WindowPane rowPane = row.pane();
      out.output(
          KV.of(
              KV.of(recordKey(row.keyValues(), rowPane), rowPane.isWithdrawn()),
              line(row.values(), rowPane)));
    }
  }

  private String line(Object[] row, WindowPane window) {
    List<String> names = query.resultNames();
    return JsonLines.object(
        json -> {
          for (int c = 0; c < names.size(); c++) {
            json.writeFieldName(names.get(c));
            json.writeObject(query.shown(c, row[c]));
          }
          JsonLines.writeTiming(json, window);
        });
  }

  private String recordKey(List<@Nullable Object> keyValues, WindowPane window) {
    List<String> names = query.keyNames();
    return JsonLines.object(
        json -> {
          for (int k = 0; k < names.size(); k++) {
            json.writeFieldName(names.get(k));
            json.writeObject(query.shownKey(k, keyValues.get(k)));
          }
          json.writeNumberField("windowStart", window.windowStart().getMillis());
          json.writeNumberField("windowEnd", window.windowEnd().getMillis());
        });
  }
}
