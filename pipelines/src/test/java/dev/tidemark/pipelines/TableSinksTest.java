package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import dev.tidemark.pipelines.sql.QueryTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every pipeline writes to PostgreSQL tables what it writes as JSON lines, on the DirectRunner: a
 * run with file sinks and a run with table sinks over the same bundled sample, side by side. The
 * results table holds each final line's values in its columns, the late and dead-letter tables each
 * late record and dead letter.
 */
@ExtendWith(SharedPostgresServer.class)
class TableSinksTest {

  @TempDir Path directory;

  @ParameterizedTest
  @CsvSource({"count", "metrics", "join", "sql"})
  void theTablesHoldWhatTheLinesSay(String pipeline, PostgresServer server) throws Exception {
    Outputs.Run lines = Outputs.run(directory, pipeline, pipeline);
    String results = pipeline + "_results";
    String late = pipeline + "_late";
    String dead = pipeline + "_dead";
    CommandLine tables =
        CommandLine.run(
            pipeline,
            "--sink=" + server.sink(results),
            "--lateSink=" + server.sink(late),
            "--deadLetterSink=" + server.sink(dead),
            "--jdbcProperties=" + server.superuserProperties(directory));
    assertThat(tables.err, tables.exitCode, equalTo(0));
    assertThat(tables.err.lines().reduce((a, b) -> b).orElse(""), equalTo(lines.summary()));

    TableLayout layout = layoutOf(pipeline);
    List<String> expected = new ArrayList<>();
    for (JsonNode line : lines.results()) {
      expected.add(valuesOf(layout, line));
    }
    assertThat(
        server.rows("SELECT " + columnsOf(layout) + " FROM " + results),
        containsInAnyOrder(expected.toArray()));
    List<String> expectedLate = new ArrayList<>();
    for (JsonNode line : lines.late()) {
      expectedLate.add(
          line.get("key").asText()
              + "|"
              + line.get("eventTime").asLong()
              + "|"
              + line.get("lateByMillis").asLong()
              + "|"
              + line.get("record").asText());
    }
    assertThat(
        server.rows(
            "SELECT key, (extract(epoch FROM event_time) * 1000)::bigint, late_by_millis, record"
                + " FROM "
                + late),
        containsInAnyOrder(expectedLate.toArray()));
    List<String> expectedDead = new ArrayList<>();
    for (JsonNode line : lines.dead()) {
      expectedDead.add(line.get("reason").asText() + "|" + line.get("record").asText());
    }
    assertThat(
        server.rows("SELECT reason, record FROM " + dead),
        containsInAnyOrder(expectedDead.toArray()));
  }

  /** The pipeline's results table: each of the bundled samples has one final pane a window. */
  private static TableLayout layoutOf(String pipeline) {
    return switch (pipeline) {
      case "count" -> CountPipeline.table(false);
      case "metrics" -> MetricsPipeline.TABLE;
      case "join" -> JoinPipeline.TABLE;
      default ->
          QueryTable.of(
              SqlPipeline.settings(PipelineOptionsFactory.create().as(SqlPipeline.Options.class))
                  .format()
                  .query());
    };
  }

  /** The columns a JSON line holds too: all but the window's, which metrics and sql do not show. */
  private static List<TableColumn> lineColumns(TableLayout layout) {
    return layout.columns().stream()
        .filter(column -> !column.name().startsWith("window_"))
        .toList();
  }

  private static String columnsOf(TableLayout layout) {
    return lineColumns(layout).stream()
        .map(column -> "\"" + column.name() + "\"")
        .collect(Collectors.joining(", "));
  }

  private static String valuesOf(TableLayout layout, JsonNode line) {
    return lineColumns(layout).stream()
        .map(column -> line.path(column.field()))
        .map(value -> value.isMissingNode() || value.isNull() ? "null" : value.asText())
        .collect(Collectors.joining("|"));
  }
}
