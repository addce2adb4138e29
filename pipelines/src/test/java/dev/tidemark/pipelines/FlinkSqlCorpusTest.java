package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of windowed queries as a Flink SQL user pastes them ({@code flink-sql-corpus.sql}), each
 * run by Flink SQL 1.19 and by {@code sql} over the same JSON file, read by the same {@code CREATE
 * TABLE} ({@code --ddl} for {@code sql}, Flink's filesystem connector and JSON format for Flink
 * SQL): {@code NULL}s (a JSON {@code null} and a missing field), Flink's types ({@code STRING},
 * {@code DECIMAL(10, 2)}, {@code DATE}) and functions, {@code DISTINCT} aggregates, every window
 * kind. Each query either gives Flink SQL's rows, or is refused in one line that names the
 * construct and says nothing of the planner. The records are in order as the 2 s bound counts it,
 * so no record is late and both engines count every one; {@link FlinkSqlDifferentialTest} holds the
 * late rules against Flink SQL. {@code docs/sql-corpus.md} lists the corpus, and this test keeps it
 * true.
 */
@Order(SuiteOrder.LONG)
class FlinkSqlCorpusTest {

  /** The user's table, with the file it reads in place of {@code %s}. */
  private static final String DDL =
      String.join(
          "\n",
          "CREATE TABLE _source_table (",
          "  t BIGINT NOT NULL,",
          "  i STRING,",
          "  op STRING,",
          "  v BIGINT,",
          "  `user` STRING,",
          "  price DECIMAL(10, 2),",
          "  `day` DATE,",
          "  j STRING,",
          "  rowtime AS TO_TIMESTAMP_LTZ(t, 3),",
          "  WATERMARK FOR rowtime AS rowtime - INTERVAL '2' SECOND",
          ") WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json')");

  private static final String QUERY_OF_THE_REFUSALS =
      "SELECT i, COUNT(*) AS n FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i";

  private static final ObjectMapper EXACT_NUMBERS =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

  @TempDir static Path directory;

  static StreamTableEnvironment flinkSql;
  static Path records;
  static Path ddl;

  /**
   * Flink SQL's rows of each query that runs, asked in the corpus's order on a thread of their own
   * as the test starts, so that Flink SQL plans and runs its jobs while {@code sql} runs its own.
   */
  static ExecutorService flinkSqlThread;

  static Map<String, Future<List<String>>> flinkSqlAnswers;

  @BeforeAll
  static void startFlinkSql() throws Exception {
    records = directory.resolve("records.json");
    Files.write(records, records());
    ddl = directory.resolve("table.sql");
    Files.writeString(ddl, DDL.formatted(records));
    // Flink SQL's planner keeps its metadata per thread: its table environment is made, and
    // asked, on the one thread.
    flinkSqlThread = Executors.newSingleThreadExecutor();
    flinkSqlThread.submit(FlinkSqlCorpusTest::createFlinkSqlTable).get();
    flinkSqlAnswers = new LinkedHashMap<>();
    for (Corpus.Entry entry : Corpus.read()) {
      if (entry.runs()) {
        flinkSqlAnswers.put(
            entry.query(), flinkSqlThread.submit(() -> flinkSqlRows(entry.query())));
      }
    }
  }

  private static Void createFlinkSqlTable() {
    StreamExecutionEnvironment flink = StreamExecutionEnvironment.getExecutionEnvironment();
    flink.setParallelism(1);
    // A watermark after every record, as tidemark's replay has it.
    flink.getConfig().setAutoWatermarkInterval(0);
    flinkSql = StreamTableEnvironment.create(flink);
    flinkSql.getConfig().setLocalTimeZone(ZoneOffset.UTC);
    flinkSql.executeSql(DDL.formatted(records));
    return null;
  }

  @AfterAll
  static void stopFlinkSql() {
    flinkSqlThread.shutdownNow();
  }

  static Stream<Arguments> queries() throws IOException {
    return Corpus.read().stream()
        .filter(Corpus.Entry::runs)
        .flatMap(
            entry ->
                Stream.concat(
                    Stream.of(Arguments.of(entry.name(), entry.query(), "DirectRunner")),
                    entry.onFlink()
                        ? Stream.of(Arguments.of(entry.name(), entry.query(), "FlinkRunner"))
                        : Stream.empty()));
  }

  static Stream<Arguments> refusals() throws IOException {
    return Corpus.read().stream()
        .filter(entry -> !entry.runs())
        .map(entry -> Arguments.of(entry.name(), entry.query(), entry.construct()));
  }

  @ParameterizedTest(name = "{0}, on the {2}")
  @MethodSource("queries")
  void sqlGivesFlinkSqlsRows(String name, String query, String runner) throws Exception {
    String run = file(name + "-" + runner);
    Outputs.Run tidemark = tidemark(query, run, runner);

    List<String> rows = EngineRows.ofTidemark(exactly(directory.resolve(run + "-results.json")));
    EngineRows.assertSame(rows, flinkSqlAnswers.get(query).get());
    assertThat(rows.size(), greaterThan(3));
    assertThat(tidemark.dead().size(), equalTo(0));
    assertThat(tidemark.late().size(), equalTo(0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void aQueryBeyondSqlIsRefusedInOneLineNamingIt(String name, String query, String construct) {
    CommandLine run = CommandLine.run("sql", "--ddl=@" + ddl, "--query=" + query);

    assertThat(run.err, run.exitCode, equalTo(2));
    assertThat(run.err.strip().lines().count(), equalTo(1L));
    assertThat(run.err, containsString(construct));
    assertThat(run.err, containsString("sql takes"));
    for (String plannerWord : List.of("$SCALAR_QUERY", "convention", "BEAM_LOGICAL", "Rel", "$")) {
      assertThat(run.err, not(containsString(plannerWord)));
    }
  }

  @Test
  void theDocumentedCorpusIsThisOne() throws Exception {
    String documented = Files.readString(Path.of("..", "docs", "sql-corpus.md"));
    String expected = Corpus.markdown(Corpus.read(), DDL.formatted("records.json"));
    assertThat(
        "docs/sql-corpus.md is not the corpus; it is:\n" + expected, documented, equalTo(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--ddl with --schema | | --schema=t BIGINT | tidemark: --ddl and --schema both declare the"
            + " table; give the columns, event time and name in one of them",
        "an option sql does not take | 'scan.watermark.idle-timeout' = '5s' | | tidemark: --ddl:"
            + " the option 'scan.watermark.idle-timeout' is not one sql takes",
        "a connector sql does not read | 'connector' = 'datagen' | | tidemark: --ddl: the connector"
            + " 'datagen' is not one sql reads",
        "a watermark that contradicts --maxOutOfOrderness | | --maxOutOfOrderness=5s | tidemark:"
            + " --ddl says 2000ms and --maxOutOfOrderness says 5s; give one of them"
      })
  void aTableDefinitionThatContradictsAnOptionOrNamesAnUnknownOneIsOneLine(
      String name, String withOption, String option, String refusal) throws Exception {
    Path contradicting = directory.resolve("contradicting.sql");
    String table =
        DDL.formatted(records)
            .replace(
                "WITH ('connector' = 'filesystem', ",
                withOption == null ? "WITH (" : "WITH (" + withOption + ", ");
    if (withOption != null && withOption.contains("connector")) {
      table = table.replace("'connector' = 'filesystem', ", "");
    }
    Files.writeString(contradicting, table);
    List<String> args =
        new ArrayList<>(
            List.of("sql", "--ddl=@" + contradicting, "--query=" + QUERY_OF_THE_REFUSALS));
    if (option != null) {
      args.add(option);
    }
    CommandLine run = CommandLine.run(args.toArray(new String[0]));

    assertThat(run.err, run.exitCode, equalTo(2));
    assertThat(run.err.strip().lines().count(), equalTo(1L));
    assertThat(run.err, startsWith(refusal));
  }

  /**
   * Every record is counted once: in a window's {@code COUNT(*)}, as filtered out by {@code WHERE},
   * late, or a dead letter. Here a record whose event time is {@code null} is the dead letter, and
   * says so.
   */
  @Test
  void everyRecordIsCountedFilteredLateOrDead() throws Exception {
    List<String> input = new ArrayList<>(records());
    input.add("{\"t\":null,\"i\":\"idx_a\",\"op\":\"es_sink\",\"v\":1,\"user\":\"u1\"}");
    Path file = directory.resolve("accounted.json");
    Files.write(file, input);
    Path table = directory.resolve("accounted.sql");
    Files.writeString(table, DDL.formatted(file));
    Outputs.Run run =
        Outputs.run(
            directory,
            "accounted",
            "sql",
            "--ddl=@" + table,
            "--query=SELECT i, COUNT(*) AS n FROM _source_table WHERE v IS NOT NULL"
                + " GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i",
            "--emit=final",
            "--runner=DirectRunner");

    long counted = 0;
    for (JsonNode row : run.results()) {
      counted += row.get("n").asLong();
    }
    Matcher summary =
        Pattern.compile("(\\d+) records in, .* (\\d+) filtered, (\\d+) late, (\\d+) dead letters")
            .matcher(run.summary());
    assertThat(run.summary(), summary.find(), equalTo(true));
    long in = Long.parseLong(summary.group(1));
    long filtered = Long.parseLong(summary.group(2));
    assertThat(in, equalTo((long) input.size()));
    assertThat(filtered, greaterThan(10L));
    assertThat(
        counted + filtered + Long.parseLong(summary.group(3)) + Long.parseLong(summary.group(4)),
        equalTo(in));
    assertThat(run.dead().get(0).get("reason").asText(), containsString("field 't' is null"));
  }

  /**
   * 400 records 10 ms apart from 1700000000005, each up to 1.9 s early or late of its place; every
   * 7th {@code user} is {@code null}, every 9th missing; every 11th has no {@code v}, every 13th no
   * {@code price}, every 5th no {@code day}.
   */
  private static List<String> records() {
    Random random = new Random(11);
    String[][] keys = {{"idx_a", "es_sink"}, {"idx_a", "kafka_sink"}, {"idx_b", "es_sink"}};
    List<String> lines = new ArrayList<>();
    for (int n = 0; n < 400; n++) {
      long t = 1700000000005L + n * 10L - random.nextInt(190) * 10L;
      String[] key = keys[random.nextInt(keys.length)];
      StringBuilder line =
          new StringBuilder("{\"t\":" + t + ",\"i\":\"" + key[0] + "\",\"op\":\"" + key[1] + "\"");
      int v = random.nextInt(1000);
      if (n % 11 != 10) {
        line.append(",\"v\":").append(v);
      }
      if (n % 7 == 6) {
        line.append(",\"user\":null");
      } else if (n % 9 != 8) {
        line.append(",\"user\":\"u").append(random.nextInt(12)).append('"');
      }
      if (n % 13 != 12) {
        line.append(",\"price\":").append(random.nextInt(10000) / 100.0);
      }
      if (n % 5 != 4) {
        line.append(",\"day\":\"2023-11-1").append(3 + random.nextInt(3)).append('"');
      }
      line.append(",\"j\":\"{\\\"k\\\":\\\"x").append(random.nextInt(4)).append("\\\"}\"");
      lines.add(line.append('}').toString());
    }
    return lines;
  }

  private static String file(String name) {
    return name.replaceAll("[^A-Za-z0-9-]", "_");
  }

  /** {@code sql} over the corpus's table, on the DirectRunner or on Flink at parallelism 2. */
  private static Outputs.Run tidemark(String query, String run, String runner) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "sql", "--ddl=@" + ddl, "--query=" + query, "--emit=final", "--runner=" + runner));
    if (runner.equals("FlinkRunner")) {
      args.add("--parallelism=2");
    }
    return Outputs.run(directory, run, args.toArray(new String[0]));
  }

  /** The lines of a results file, their numbers read exactly: a DECIMAL's scale stays. */
  private static List<JsonNode> exactly(Path results) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(results)) {
      lines.add(EXACT_NUMBERS.readTree(line));
    }
    return lines;
  }

  /** What Flink SQL gives for {@code query} over the records, as {@link EngineRows} writes them. */
  private static List<String> flinkSqlRows(String query) throws Exception {
    return EngineRows.ofFlinkSql(flinkSql.executeSql(query));
  }
}
