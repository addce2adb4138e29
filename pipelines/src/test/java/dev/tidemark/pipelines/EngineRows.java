package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * The rows of a query from {@code sql} and from Flink SQL, each as its columns' texts joined by
 * {@code |}, sorted, so that the two engines' answers compare as lists of text; and the comparison,
 * which names the rows only one engine gives.
 */
final class EngineRows {

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  private EngineRows() {}

  /** The final rows of {@code sql}'s result lines. */
  static List<String> ofTidemark(List<JsonNode> results) {
    List<String> rows = new ArrayList<>();
    for (JsonNode row : results) {
      if (!row.get("final").asBoolean()) {
        continue;
      }
      List<String> columns = new ArrayList<>();
      row.fieldNames()
          .forEachRemaining(
              field -> {
                if (!List.of("timing", "pane", "final").contains(field)) {
                  columns.add(row.get(field).asText());
                }
              });
      rows.add(String.join("|", columns));
    }
    Collections.sort(rows);
    return rows;
  }

  /** The rows of a Flink SQL query, each value as {@code sql} writes it. */
  static List<String> ofFlinkSql(TableResult result) throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<Row> results = result.collect()) {
      while (results.hasNext()) {
        Row row = results.next();
        List<String> columns = new ArrayList<>();
        for (int c = 0; c < row.getArity(); c++) {
          columns.add(text(row.getField(c)));
        }
        rows.add(String.join("|", columns));
      }
    }
    Collections.sort(rows);
    return rows;
  }

  /** The same rows from both engines, or a failure that names the rows only one of them has. */
  static void assertSame(List<String> tidemark, List<String> flinkSql) {
    List<String> onlyTidemark = new ArrayList<>(tidemark);
    flinkSql.forEach(onlyTidemark::remove);
    List<String> onlyFlinkSql = new ArrayList<>(flinkSql);
    tidemark.forEach(onlyFlinkSql::remove);
    assertThat(
        "rows only tidemark gives: "
            + onlyTidemark
            + "; rows only Flink SQL gives: "
            + onlyFlinkSql,
        tidemark,
        equalTo(flinkSql));
  }

  /** A Flink SQL value as {@code sql} writes it: a time as Flink casts it to text, in UTC. */
  private static String text(Object value) {
    if (value instanceof LocalDateTime local) {
      return local.format(TIMESTAMP);
    }
    if (value instanceof Instant instant) {
      return TIMESTAMP.withZone(ZoneOffset.UTC).format(instant);
    }
    return String.valueOf(value);
  }
}
