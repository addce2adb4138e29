package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import dev.tidemark.pipelines.sql.QueryTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
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

  /**
   * A row the results table refuses, a key too long for the column its user made narrower, goes to
   * the dead letters with PostgreSQL's reason; the other rows are written and the run ends well.
   */
  @Test
  void aRowTheTableRefusesIsADeadLetterAndTheRunGoesOn(PostgresServer server) throws Exception {
    server.execute(
        "CREATE TABLE narrow_index (index_name varchar(40), op_type text,"
            + " window_start timestamptz, window_end timestamptz, event_time_log text,"
            + " count_result bigint, timing text, pane bigint, final boolean,"
            + " PRIMARY KEY (index_name, op_type, window_start, window_end))");
    Path dead = directory.resolve("refused.json");
    CommandLine run =
        CommandLine.run(
            "metrics",
            "--sink=" + server.sink("narrow_index"),
            "--deadLetterSink=file:" + dead,
            "--jdbcProperties=" + server.superuserProperties(directory));
    assertThat(run.err, run.exitCode, equalTo(0));
    // S5's sample: one window of hitch_driver_order_2020_01_22_23_50_40 (38 characters), four of
    // hitch_passenger_order_2020_01_22_23_50_40 (41).
    assertThat(
        server.rows("SELECT index_name, count_result FROM narrow_index"),
        equalTo(List.of("hitch_driver_order_2020_01_22_23_50_40|1")));
    List<JsonNode> letters = Outputs.read(dead);
    assertThat(letters.size(), equalTo(4));
    for (JsonNode letter : letters) {
      assertThat(
          letter.get("record").asText(),
          containsString("hitch_passenger_order_2020_01_22_23_50_40"));
      assertThat(
          letter.get("reason").asText(),
          startsWith(
              "PostgreSQL at 127.0.0.1:"
                  + server.port()
                  + " refused the row for table narrow_index: ERROR: value too long for type"
                  + " character varying(40)"));
    }
  }

  /**
   * A window Top-N's rows are keyed by the window and the rank: with every pane written, a late
   * record within the lateness that changes a window's ranking replaces its rows, and the table
   * ends with each window's final top two, as the final lines have them.
   */
  @Test
  void aWindowTopNsTableEndsWithEachWindowsFinalRanks(PostgresServer server) throws Exception {
    Outputs.Run lines =
        linesAndTable(
            server,
            "top_hosts",
            List.of(
                "1700000001000,a,10",
                "1700000001500,b,20",
                "1700000002000,c,5",
                "1700000002500,b,7",
                "1700000009000,a,1",
                "1700000012000,a,3",
                "1700000015000,c,8",
                "1700000030000,z,1",
                // Late, within the lateness: c becomes the first of its window.
                "1700000004000,c,50"),
            "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end"
                + " ORDER BY total DESC) AS rownum FROM (SELECT window_start, window_end, host,"
                + " SUM(b) AS total FROM TABLE(TUMBLE(TABLE requests, DESCRIPTOR(rowtime),"
                + " INTERVAL '10' SECOND)) GROUP BY window_start, window_end, host))"
                + " WHERE rownum <= 2");

    List<String> finals = new ArrayList<>();
    for (JsonNode line : lines.results()) {
      if (line.get("final").asBoolean()) {
        finals.add(
            line.get("window_start").asText()
                + "|"
                + line.get("rownum").asLong()
                + "|"
                + line.get("host").asText()
                + "|"
                + line.get("total").asLong());
      }
    }
    assertThat(finals, hasItem(containsString("|1|c|55")));
    assertThat(
        server.rows(
            "SELECT to_char(window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'), rownum,"
                + " host, total FROM top_hosts"),
        containsInAnyOrder(finals.toArray()));
  }

  /**
   * A session whose {@code GROUP BY} column is {@code NULL} is a row of its own: the table ends
   * with one row per host's session, the {@code NULL} host's among them, joined by a late record
   * within the lateness. ({@code TableWriterTest} deletes a {@code NULL} group's session that
   * merged away.)
   */
  @Test
  void aSessionWhoseGroupIsNullIsARowOfItsOwn(PostgresServer server) throws Exception {
    Path input = directory.resolve("visits.csv");
    Files.write(
        input,
        List.of(
            "1700000001000,,10",
            "1700000001500,a,20",
            "1700000009000,,5",
            "1700000030000,z,1",
            // Late, within the lateness: joins the NULL host's sessions of 1 s and 9 s into one.
            "1700000005000,,50"));
    CommandLine table =
        CommandLine.run(
            "sql",
            "--source=file:" + input,
            "--format=csv",
            "--schema=ts BIGINT, host STRING, b BIGINT",
            "--eventTime=ts",
            "--table=visits",
            "--allowedLateness=30s",
            "--query=SELECT window_start, window_end, host, SUM(b) AS total FROM TABLE(SESSION(TABLE"
                + " visits PARTITION BY host, DESCRIPTOR(rowtime), INTERVAL '5' SECOND))"
                + " GROUP BY window_start, window_end, host",
            "--sink=" + server.sink("visits"),
            "--jdbcProperties=" + server.superuserProperties(directory));
    assertThat(table.err, table.exitCode, equalTo(0));

    // Sessions of a 5 s gap: a's record alone, z's alone, and the NULL host's three records.
    assertThat(
        server.rows(
            "SELECT (extract(epoch FROM window_start) * 1000)::bigint - 1700000000000,"
                + " (extract(epoch FROM window_end) * 1000)::bigint - 1700000000000, host, total,"
                + " final FROM visits"),
        containsInAnyOrder(
            "1500|6500|a|20|true", "30000|35000|z|1|true", "1000|14000|null|65|true"));
  }

  /**
   * Runs {@code sql}'s {@code query} over {@code records}, CSV lines of the table {@code requests}
   * ({@code ts BIGINT, host STRING, b BIGINT}), with a lateness of 30 s: into JSON lines, which it
   * returns, and into the PostgreSQL table {@code table}.
   */
  private Outputs.Run linesAndTable(
      PostgresServer server, String table, List<String> records, String query) throws Exception {
    Path input = directory.resolve(table + ".csv");
    Files.write(input, records);
    String[] run = {
      "sql",
      "--source=file:" + input,
      "--format=csv",
      "--schema=ts BIGINT, host STRING, b BIGINT",
      "--eventTime=ts",
      "--table=requests",
      "--allowedLateness=30s",
      "--query=" + query
    };
    Outputs.Run lines = Outputs.run(directory, table, run);
    List<String> args = new ArrayList<>(List.of(run));
    args.add("--sink=" + server.sink(table));
    args.add("--jdbcProperties=" + server.superuserProperties(directory));
    CommandLine written = CommandLine.run(args.toArray(new String[0]));
    assertThat(written.err, written.exitCode, equalTo(0));
    return lines;
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
