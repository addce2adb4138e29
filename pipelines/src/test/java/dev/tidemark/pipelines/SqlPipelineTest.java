package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.sql.InvalidQueryException;
import dev.tidemark.sql.SqlTable;
import dev.tidemark.sql.WindowedQuery;
import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code sql} from its command line: S5's query text, unchanged, against {@code metrics} on the
 * same records, late and bad ones among them, and a query of a user's own on CSV records.
 */
@Order(SuiteOrder.LONG)
class SqlPipelineTest {

  @TempDir static Path directory;

  static Path stats;

  /**
   * 30,000 S5 records over about ten minutes of event time, 2 s out of order at most, with every
   * 100th record 10 s late and every 250th broken: not JSON, no {@code t}, or a {@code t} that is
   * not a number.
   */
  @BeforeAll
  static void writeStats() throws Exception {
    Random random = new Random(5);
    String[][] keys = {{"idx_a", "es_sink"}, {"idx_a", "kafka_sink"}, {"idx_b", "es_sink"}};
    List<String> lines = new ArrayList<>();
    long base = 1700000000000L;
    for (int n = 0; n < 30_000; n++) {
      long t = base + n * 20L - random.nextInt(2000) - (n % 100 == 99 ? 10_000 : 0);
      String[] key = keys[random.nextInt(keys.length)];
      String line =
          switch (n % 250 == 249 ? n % 3 : -1) {
            case 0 -> "{\"t\":" + t + ",\"i\":\"" + key[0];
            case 1 -> "{\"n\":" + n + ",\"i\":\"" + key[0] + "\",\"op\":\"" + key[1] + "\"}";
            case 2 ->
                "{\"n\":"
                    + n
                    + ",\"t\":\"soon\",\"i\":\""
                    + key[0]
                    + "\",\"op\":\""
                    + key[1]
                    + "\"}";
            default ->
                "{\"t\":"
                    + t
                    + ",\"st\":\"DIRECT\",\"i\":\""
                    + key[0]
                    + "\",\"op\":\""
                    + key[1]
                    + "\"}";
          };
      lines.add(line);
    }
    stats = directory.resolve("stats.json");
    Files.write(stats, lines);
  }

  @ParameterizedTest(name = "{0} at parallelism {1}, in {2}")
  @CsvSource({
    "DirectRunner, 1, UTC",
    "FlinkRunner, 1, UTC",
    "FlinkRunner, 2, Asia/Shanghai",
    "FlinkRunner, 4, America/New_York"
  })
  void s5QueryTextGivesTheRowsLateRecordsAndDeadLettersOfMetrics(
      String runner, int parallelism, String timeZone) throws Exception {
    String[] common = {
      "--source=file:" + stats,
      "--runner=" + runner,
      "--parallelism=" + parallelism,
      "--timeZone=" + timeZone
    };
    Outputs.Run metrics =
        Outputs.run(directory, "metrics-" + runner + parallelism, withCommand("metrics", common));
    Outputs.Run sql =
        Outputs.run(
            directory,
            "sql-" + runner + parallelism,
            withCommand(
                "sql",
                append(
                    common,
                    "--query=" + SqlPipeline.S5_QUERY,
                    "--schema=t BIGINT, i VARCHAR, op VARCHAR",
                    "--eventTime=t",
                    "--table=_source_table")));

    assertThat(finalRows(sql.results()), equalTo(finalRows(metrics.results())));
    assertThat(finalRows(sql.results()).size(), not(equalTo(0)));
    assertThat(sql.records("late"), equalTo(metrics.records("late")));
    assertThat(sql.records("late").size(), not(equalTo(0)));
    assertThat(sql.records("deadLetter"), equalTo(metrics.records("deadLetter")));
    assertThat(sql.records("deadLetter").size(), equalTo(120));
  }

  @Test
  void aRunWithoutAReportDoesNotPlanItsQueryForOne() {
    SqlPipeline.Options options = PipelineOptionsFactory.as(SqlPipeline.Options.class);
    // A run's settings plan its query, about a second; the build plans it for the run.
    ExplainRecording.writeReportIfAsked(
        options,
        () -> {
          throw new AssertionError("settings made for a report nobody asked for");
        });
  }

  /**
   * A query's plan is saved and read back under what it is made from: each of the query, the
   * table's name, schema and event time, and the time zone changes that, and nothing else does.
   */
  @Test
  void aQuerysPlanIsKnownByEverythingItIsMadeFrom() throws InvalidQueryException {
    String given = inputsOfThePlan();
    assertThat(inputsOfThePlan("--parallelism=4", "--maxOutOfOrderness=5s"), equalTo(given));
    for (String other :
        List.of(
            "--query=" + SqlPipeline.S5_QUERY.replace("count(op)", "count(*)"),
            "--table=stats",
            "--schema=t BIGINT, sent BIGINT, i VARCHAR, op VARCHAR, st VARCHAR",
            "--eventTime=sent",
            "--timeZone=Asia/Shanghai")) {
      assertThat(other, inputsOfThePlan(other), not(equalTo(given)));
    }
  }

  /** A table definition read from a file is known by what the file says, not by its name. */
  @Test
  void aTableDefinitionsPlanIsKnownByTheFilesText() throws Exception {
    Path ddl = directory.resolve("plan-table.sql");
    String table =
        "CREATE TABLE _source_table (t BIGINT, i STRING, op %s, rowtime AS TO_TIMESTAMP_LTZ(t, 3),"
            + " WATERMARK FOR rowtime AS rowtime - INTERVAL '2' SECOND)";
    Files.writeString(ddl, table.formatted("STRING"));
    String given = inputsOfThePlan("--ddl=@" + ddl);
    assertThat(inputsOfThePlan("--ddl=@" + ddl), equalTo(given));

    Files.writeString(ddl, table.formatted("INT"));

    assertThat(inputsOfThePlan("--ddl=@" + ddl), not(equalTo(given)));
  }

  /** What {@code sql}'s query is planned from, given the sample's options and {@code more}. */
  private static String inputsOfThePlan(String... more) throws InvalidQueryException {
    WindowedQuery s5 =
        WindowedQuery.plan(
            SqlTable.of("_source_table", "t BIGINT, i VARCHAR, op VARCHAR", "t"),
            SqlPipeline.S5_QUERY);
    Map<String, String> args = new TreeMap<>();
    args.put("--schema", "--schema=t BIGINT, sent BIGINT, i VARCHAR, op VARCHAR");
    if (Arrays.stream(more).anyMatch(option -> option.startsWith("--ddl="))) {
      args.remove("--schema");
    }
    for (String option : more) {
      args.put(option.substring(0, option.indexOf('=')), option);
    }
    SqlPipeline.Options options =
        PipelineOptionsFactory.fromArgs(args.values().toArray(String[]::new))
            .as(SqlPipeline.Options.class);
    List<String> inputs = new ArrayList<>();
    SqlPipeline.build(
        options,
        (planned, planner) -> {
          inputs.add(planned);
          return s5;
        });
    return String.join("", inputs);
  }

  /**
   * {@code explain --query} predicts what {@code sql} does with the same arguments, and {@code
   * sql}'s defaults: each group's final pane in each window holds as many records as the row
   * counts, and the late records and dead letters are the same.
   */
  @Test
  void explainWithTheQuerySaysWhatSqlDoes() throws Exception {
    String[] args = {"--source=file:" + stats, "--query=" + SqlPipeline.S5_QUERY};
    ReplayTimeline timeline =
        ExplainRecording.timeline(
            PipelineOptionsFactory.fromArgs(args).as(ExplainRecording.Options.class), args);
    Outputs.Run sql =
        Outputs.run(
            directory, "sql-explained", withCommand("sql", append(args, "--runner=DirectRunner")));

    Set<String> predicted = new TreeSet<>();
    for (ReplayTimeline.Pane pane : timeline.panes()) {
      if (pane.isFinal()) {
        predicted.add(pane.key() + " " + pane.windowEnd().getMillis() + " " + pane.count());
      }
    }
    Set<String> written = new TreeSet<>();
    for (JsonNode row : sql.results()) {
      if (row.get("final").asBoolean()) {
        long end =
            java.time.LocalDateTime.parse(row.get("event_time_log").asText().replace(' ', 'T'))
                .toInstant(java.time.ZoneOffset.UTC)
                .toEpochMilli();
        written.add(
            "[\""
                + row.get("index_name").asText()
                + "\",\""
                + row.get("op_type").asText()
                + "\"] "
                + end
                + " "
                + row.get("count_result").asLong());
      }
    }
    assertThat(written, equalTo(predicted));
    assertThat(
        sql.records("late"),
        equalTo(timeline.late().stream().map(late -> late.raw()).collect(Collectors.toSet())));
    assertThat(
        sql.records("deadLetter"),
        equalTo(
            timeline.deadLetters().stream().map(dead -> dead.raw()).collect(Collectors.toSet())));
    assertThat(timeline.late().size(), not(equalTo(0)));
  }

  @Test
  void aQueryOfItsOwnOverCsvFiltersSumsAndKeepsTheGroupsItsHavingKeeps() throws Exception {
    Path requests = directory.resolve("requests.csv");
    Files.write(
        requests,
        List.of(
            "1700000001000,web-1,200,100,0.5",
            "1700000002000,web-1,200,50,1.5",
            "1700000003000,web-1,health,7,9.0",
            "1700000004000,web-2,200,1,1.0",
            "1700000012000,web-1,500,10,2.0",
            "1700000013000,web-1,500,20,0.25",
            "1700000014000,web-1,500,not-a-number,0.25",
            "1700000031000,web-2,200,1,1.0",
            "1700000002500,web-1,200,5,7.0",
            // Late too, and filtered out: counted once, as filtered, never as late.
            "1700000002600,web-1,health,3,1.0"));
    Path query = directory.resolve("requests.sql");
    Files.writeString(
        query,
        "SELECT host, status, TUMBLE_START(rowtime, INTERVAL '10' SECOND) AS ws, COUNT(*) AS n,"
            + " SUM(bytes) AS total, MAX(latency) AS worst\n"
            + "FROM requests\n"
            + "WHERE status <> 'health'\n"
            + "GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), host, status\n"
            + "HAVING COUNT(*) > 1");

    Outputs.Run run =
        Outputs.run(
            directory,
            "requests",
            "sql",
            "--source=file:" + requests,
            "--format=csv",
            "--schema=ts BIGINT, host VARCHAR, status VARCHAR, `bytes` BIGINT, latency DOUBLE",
            "--eventTime=ts",
            "--table=requests",
            "--query=@" + query,
            "--maxOutOfOrderness=0s",
            "--runner=DirectRunner");

    List<String> finals = new ArrayList<>();
    // Windows close in no set order across keys: the rows are compared sorted.
    for (JsonNode row : run.results()) {
      if (row.get("final").asBoolean()) {
        finals.add(row.toString().replaceAll(",\"timing\".*", "}"));
      }
    }
    Collections.sort(finals);
    assertThat(
        finals.toString(),
        equalTo(
            "[{\"host\":\"web-1\",\"status\":\"200\",\"ws\":\"2023-11-14 22:13:20.000\",\"n\":2,"
                + "\"total\":150,\"worst\":1.5}, "
                + "{\"host\":\"web-1\",\"status\":\"500\",\"ws\":\"2023-11-14 22:13:30.000\",\"n\":2,"
                + "\"total\":30,\"worst\":2.0}]"));
    assertThat(run.records("late").size(), equalTo(1));
    assertThat(run.records("late").iterator().next(), containsString("1700000002500"));
    assertThat(run.records("deadLetter").size(), equalTo(1));
    assertThat(
        run.summary(),
        equalTo("tidemark: 10 records in, 2 results out, 2 filtered, 1 late, 1 dead letters"));
  }

  /**
   * Flink SQL's session group window, over a file: a late record within the lateness joins two
   * closed sessions into one, whose {@code SESSION_END} is the merged session's end. A replay gives
   * a window's rows when it expires, so neither session had a row to withdraw ({@code
   * SqlPerWindowTest} shows the withdrawal of a live run).
   */
  @Test
  void aLateRecordWithinTheLatenessJoinsTwoSessionsIntoOneRow() throws Exception {
    Path records = directory.resolve("sessions.json");
    Files.write(
        records,
        List.of(
            "{\"t\":1700000000000,\"i\":\"a\",\"op\":\"x\"}",
            "{\"t\":1700000001500,\"i\":\"a\",\"op\":\"x\"}",
            // The watermark passes 1700000002500: [0 s, 1 s) and [1.5 s, 2.5 s) close.
            "{\"t\":1700000003200,\"i\":\"b\",\"op\":\"x\"}",
            // Late for both, within the lateness: [0.8 s, 1.8 s) joins them.
            "{\"t\":1700000000800,\"i\":\"a\",\"op\":\"x\"}"));

    Outputs.Run run =
        Outputs.run(
            directory,
            "sessions",
            "sql",
            "--source=file:" + records,
            "--query=SELECT i, SESSION_START(rowtime, INTERVAL '1' SECOND) AS s,"
                + " SESSION_END(rowtime, INTERVAL '1' SECOND) AS e, COUNT(*) AS n"
                + " FROM _source_table GROUP BY SESSION(rowtime, INTERVAL '1' SECOND), i",
            "--maxOutOfOrderness=0s",
            "--allowedLateness=10s",
            "--emit=all",
            "--runner=DirectRunner");

    List<String> rowsOfA = new ArrayList<>();
    for (JsonNode row : run.results()) {
      if (row.get("i").asText().equals("a")) {
        rowsOfA.add(
            row.get("s").asText().substring(17)
                + ".."
                + row.get("e").asText().substring(17)
                + " "
                + row.get("timing").asText()
                + (row.get("final").asBoolean() ? " final" : "")
                + (row.has("mergedInto")
                    ? " merged into " + row.get("mergedInto").get("windowEnd").asLong()
                    : "")
                + " n="
                + row.get("n").asLong());
      }
    }
    assertThat(
        run.results().toString(),
        rowsOfA,
        containsInAnyOrder("20.000..22.500 ON_TIME n=2", "20.000..22.500 LATE final n=3"));
    assertThat(run.late().size(), equalTo(0));
  }

  @Test
  void aQuerySqlDoesNotRunIsRefusedInOneLineBeforeTheJobStarts() {
    CommandLine session =
        CommandLine.run(
            "sql",
            "--query=SELECT op, window_start, COUNT(*) FROM TABLE(SESSION(TABLE _source_table"
                + " PARTITION BY i, DESCRIPTOR(rowtime), INTERVAL '1' SECOND))"
                + " GROUP BY window_start, window_end, op");
    CommandLine kolkata =
        CommandLine.run(
            "sql",
            "--timeZone=Asia/Kolkata",
            "--query=SELECT i, COUNT(*) FROM _source_table"
                + " GROUP BY TUMBLE(rowtime, INTERVAL '1' HOUR), i");
    CommandLine typo =
        CommandLine.run(
            "sql",
            "--query=SELECT i, COUNT(*) FROM _source_table"
                + " GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i, opp");

    assertThat(session.err, session.exitCode, equalTo(2));
    assertThat(session.err.strip().lines().count(), equalTo(1L));
    assertThat(
        session.err,
        containsString(
            "--query: SESSION(TABLE t PARTITION BY ...) must partition by the columns the query"
                + " groups by besides window_start and window_end (op): sessions are kept per"
                + " group; sql takes SELECT"));
    assertThat(kolkata.err, kolkata.exitCode, equalTo(2));
    assertThat(kolkata.err.strip().lines().count(), equalTo(1L));
    assertThat(
        kolkata.err,
        containsString(
            "--query: in --timeZone=Asia/Kolkata, which has been UTC+05:30 at times since 1973, a window of"
                + " 1h would start 30m after the local time Flink SQL starts it at"));
    assertThat(typo.exitCode, equalTo(2));
    assertThat(
        typo.err,
        containsString(
            "there is no column 'opp'; the columns are t, i, op, rowtime; did you mean 'op'?"));
  }

  /**
   * Options that contradict each other are refused in one line that says so: an option given twice
   * (Beam's own message was "expected one element but was: <ts, time>"), and a schema of one's own
   * without a query, which ran the default query over S5's columns.
   */
  @Test
  void contradictoryOptionsAreRefusedInOneLineThatSaysWhy() {
    CommandLine twice = CommandLine.run("sql", "--eventTime=ts", "--eventTime=time");
    CommandLine schemaAlone =
        CommandLine.run("sql", "--schema=ts BIGINT, host VARCHAR, url VARCHAR", "--eventTime=ts");

    assertThat(twice.err, twice.exitCode, equalTo(2));
    assertThat(
        twice.err.strip(),
        equalTo("tidemark: --eventTime is given more than once ('ts' and 'time'); give it once"));
    assertThat(schemaAlone.err, schemaAlone.exitCode, equalTo(2));
    assertThat(
        schemaAlone.err.strip(),
        equalTo(
            "tidemark: --schema is given without --query, and the default query, S5's over the"
                + " columns t, i and op, does not fit it; give --query with your own"));
  }

  private static Map<String, String> finalRows(List<JsonNode> results) {
    Map<String, String> rows = new TreeMap<>();
    for (JsonNode row : results) {
      if (row.get("final").asBoolean()) {
        String key =
            row.get("index_name").asText()
                + "|"
                + row.get("event_time_log").asText()
                + "|"
                + row.get("op_type").asText();
        String previous = rows.put(key, row.get("count_result").asText());
        assertThat("two final rows for " + key, previous, equalTo(null));
      }
    }
    return rows;
  }

  private static String[] withCommand(String command, String... args) {
    return append(new String[] {command}, args);
  }

  private static String[] append(String[] first, String... more) {
    String[] all = new String[first.length + more.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }
}
