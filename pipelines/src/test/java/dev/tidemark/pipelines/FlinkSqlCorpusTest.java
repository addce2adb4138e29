package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of windowed queries as a Flink SQL user pastes them, each run by Flink SQL 1.19 and by
 * {@code sql} over the same records, whose table {@code sql} reads from the user's own {@code
 * CREATE TABLE} ({@code --ddl}): {@code NULL}s in JSON (a {@code null} and a missing field),
 * Flink's types and functions, {@code DISTINCT} aggregates. Each query either gives Flink SQL's
 * rows, or is refused in one line that names the construct and says nothing of the planner. The
 * records are in order as the 2 s bound counts it, so no record is late and both engines see every
 * one; {@link FlinkSqlDifferentialTest} holds the late rules against Flink SQL.
 */
@Order(SuiteOrder.LONG)
class FlinkSqlCorpusTest {

  private static final String DDL =
      "CREATE TABLE _source_table (\n"
          + "  t BIGINT NOT NULL,\n"
          + "  i STRING,\n"
          + "  op STRING,\n"
          + "  v BIGINT,\n"
          + "  `user` STRING,\n"
          + "  rowtime AS TO_TIMESTAMP_LTZ(t, 3),\n"
          + "  WATERMARK FOR rowtime AS rowtime - INTERVAL '2' SECOND\n"
          + ") WITH ('format' = 'json')";

  private static final String WINDOW = " GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND)";

  private static final String QUERY_OF_THE_REFUSALS =
      "SELECT i, COUNT(*) AS n FROM _source_table" + WINDOW + ", i";

  private static final String TVF =
      " FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND))"
          + " GROUP BY window_start, window_end";

  @TempDir static Path directory;

  static StreamExecutionEnvironment flink;
  static StreamTableEnvironment flinkSql;
  static List<String> records;

  @BeforeAll
  static void startFlinkSql() {
    flink = StreamExecutionEnvironment.getExecutionEnvironment();
    flink.setParallelism(1);
    flink.getConfig().setAutoWatermarkInterval(0);
    flinkSql = StreamTableEnvironment.create(flink);
    records = records();
  }

  static Stream<Arguments> queries() {
    String start = "TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws";
    return Stream.of(
        Arguments.of(
            "COUNT(col) skips NULL, COUNT(*) does not",
            "SELECT i, "
                + start
                + ", COUNT(*) AS n, COUNT(v) AS nv, COUNT(`user`) AS nu"
                + " FROM _source_table"
                + WINDOW
                + ", i"),
        Arguments.of(
            "SUM, MIN, MAX and AVG skip NULL",
            "SELECT op, "
                + start
                + ", SUM(v) AS s, MIN(v) AS mn, MAX(v) AS mx, AVG(v) AS av"
                + " FROM _source_table"
                + WINDOW
                + ", op"),
        Arguments.of(
            "a NULL group key is a group of its own",
            "SELECT `user`, " + start + ", COUNT(*) AS n FROM _source_table" + WINDOW + ", `user`"),
        Arguments.of(
            "WHERE col IS NULL",
            "SELECT i, "
                + start
                + ", COUNT(*) AS n FROM _source_table WHERE v IS NULL"
                + WINDOW
                + ", i"),
        Arguments.of(
            "WHERE with NULL's three values",
            "SELECT i, "
                + start
                + ", COUNT(*) AS n FROM _source_table WHERE v > 500 OR"
                + " `user` = 'u1'"
                + WINDOW
                + ", i"),
        Arguments.of(
            "COALESCE in the group key",
            "SELECT COALESCE(`user`, 'nobody') AS who, "
                + start
                + ", COUNT(*) AS n"
                + " FROM _source_table"
                + WINDOW
                + ", COALESCE(`user`, 'nobody')"),
        Arguments.of(
            "variadic CONCAT, NULL when any argument is",
            "SELECT CONCAT(i, ':', op, ':', `user`) AS k, "
                + start
                + ", COUNT(*) AS n"
                + " FROM _source_table"
                + WINDOW
                + ", CONCAT(i, ':', op, ':', `user`)"),
        Arguments.of(
            "CONCAT_WS skips NULL",
            "SELECT CONCAT_WS('/', i, `user`) AS k, "
                + start
                + ", COUNT(*) AS n"
                + " FROM _source_table"
                + WINDOW
                + ", CONCAT_WS('/', i, `user`)"),
        Arguments.of(
            "IF",
            "SELECT IF(v > 500, 'big', 'small') AS size, "
                + start
                + ", COUNT(*) AS n"
                + " FROM _source_table"
                + WINDOW
                + ", IF(v > 500, 'big', 'small')"),
        Arguments.of(
            "NULLIF",
            "SELECT i, "
                + start
                + ", COUNT(NULLIF(op, 'es_sink')) AS n FROM _source_table"
                + WINDOW
                + ", i"),
        Arguments.of(
            "CASE with NULL",
            "SELECT CASE WHEN v IS NULL THEN 'none' WHEN v < 300 THEN 'low' ELSE 'high' END AS b,"
                + " "
                + start
                + ", COUNT(*) AS n FROM _source_table"
                + WINDOW
                + ", CASE WHEN v IS NULL THEN 'none' WHEN v < 300 THEN 'low' ELSE 'high' END"),
        Arguments.of(
            "SPLIT_INDEX",
            "SELECT SPLIT_INDEX(op, '_', 0) AS sink, "
                + start
                + ", COUNT(*) AS n"
                + " FROM _source_table"
                + WINDOW
                + ", SPLIT_INDEX(op, '_', 0)"),
        Arguments.of(
            "REGEXP_EXTRACT with a group",
            "SELECT REGEXP_EXTRACT(`user`, 'u(\\d)', 1) AS d, "
                + start
                + ", COUNT(*) AS n"
                + " FROM _source_table"
                + WINDOW
                + ", REGEXP_EXTRACT(`user`, 'u(\\d)', 1)"),
        Arguments.of(
            "REGEXP_REPLACE",
            "SELECT REGEXP_REPLACE(op, '_sink$', '') AS sink, "
                + start
                + ", COUNT(*) AS n"
                + " FROM _source_table"
                + WINDOW
                + ", REGEXP_REPLACE(op, '_sink$', '')"),
        Arguments.of(
            "UPPER, SUBSTRING, CHAR_LENGTH and ||",
            "SELECT UPPER(SUBSTRING(i, 5)) || '-' || CAST(CHAR_LENGTH(op) AS STRING) AS k, "
                + start
                + ", COUNT(*) AS n FROM _source_table"
                + WINDOW
                + ", UPPER(SUBSTRING(i, 5)) || '-' || CAST(CHAR_LENGTH(op) AS STRING)"),
        Arguments.of(
            "COUNT(DISTINCT ...)",
            "SELECT i, "
                + start
                + ", COUNT(DISTINCT `user`) AS users FROM _source_table"
                + WINDOW
                + ", i"),
        Arguments.of(
            "SUM(DISTINCT ...) beside SUM",
            "SELECT op, "
                + start
                + ", SUM(DISTINCT v) AS d, SUM(v) AS s FROM _source_table"
                + WINDOW
                + ", op"),
        Arguments.of(
            "the window table function with NULL keys",
            "SELECT window_start, window_end, `user`, COUNT(*) AS n, COUNT(v) AS nv"
                + TVF
                + ", `user`"),
        Arguments.of(
            "HAVING over COUNT(col)",
            "SELECT i, op, "
                + start
                + ", COUNT(v) AS nv FROM _source_table"
                + WINDOW
                + ", i, op HAVING COUNT(v) > 20"),
        Arguments.of(
            "HOP with COUNT(DISTINCT ...)",
            "SELECT window_start, window_end, i, COUNT(DISTINCT op) AS ops, COUNT(v) AS nv"
                + " FROM TABLE(HOP(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND,"
                + " INTERVAL '3' SECOND)) GROUP BY window_start, window_end, i"),
        Arguments.of(
            "CUMULATE with NULLs",
            "SELECT window_start, window_end, op, COUNT(`user`) AS nu, MAX(v) AS mx"
                + " FROM TABLE(CUMULATE(TABLE _source_table, DESCRIPTOR(rowtime),"
                + " INTERVAL '1' SECOND, INTERVAL '2' SECOND)) GROUP BY window_start, window_end,"
                + " op"),
        Arguments.of(
            "SESSION per user, NULL among them",
            "SELECT `user`, SESSION_START(rowtime, INTERVAL '0.305' SECOND) AS ws, COUNT(*) AS n"
                + " FROM _source_table GROUP BY SESSION(rowtime, INTERVAL '0.305' SECOND),"
                + " `user`"));
  }

  static Stream<Arguments> refusals() {
    String topN =
        "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end"
            + " ORDER BY n DESC) AS rownum FROM (SELECT window_start, window_end, i, COUNT(*) AS n"
            + TVF
            + ", i)) WHERE rownum <= 2";
    return Stream.of(
        Arguments.of("window Top-N", topN, "ROW_NUMBER"),
        Arguments.of(
            "an OVER aggregation",
            "SELECT i, COUNT(*) OVER (PARTITION BY i ORDER BY rowtime) AS n FROM _source_table",
            "OVER"),
        Arguments.of(
            "LISTAGG",
            "SELECT i, LISTAGG(op) AS ops FROM _source_table" + WINDOW + ", i",
            "LISTAGG"),
        Arguments.of(
            "a GROUP BY without a window",
            "SELECT i, COUNT(*) AS n FROM _source_table GROUP BY i",
            "GROUP BY"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("queries")
  void sqlGivesFlinkSqlsRows(String name, String query) throws Exception {
    Outputs.Run tidemark = tidemark(query, name);

    List<String> rows = finalRows(tidemark.results());
    List<String> flinkRows = flinkSqlRows(query);
    List<String> onlyTidemark = new ArrayList<>(rows);
    flinkRows.forEach(onlyTidemark::remove);
    List<String> onlyFlinkSql = new ArrayList<>(flinkRows);
    rows.forEach(onlyFlinkSql::remove);
    assertThat(
        "rows only tidemark gives: "
            + onlyTidemark
            + "; rows only Flink SQL gives: "
            + onlyFlinkSql,
        rows,
        equalTo(flinkRows));
    assertThat(rows.size(), greaterThan(3));
    assertThat(tidemark.dead().size(), equalTo(0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void aQueryBeyondSqlIsRefusedInOneLineNamingIt(String name, String query, String construct)
      throws Exception {
    Path ddl = directory.resolve("refused.sql");
    Files.writeString(ddl, DDL);
    CommandLine run = CommandLine.run("sql", "--ddl=@" + ddl, "--query=" + query);

    assertThat(run.err, run.exitCode, equalTo(2));
    assertThat(run.err.strip().lines().count(), equalTo(1L));
    assertThat(run.err, containsString(construct));
    for (String plannerWord : List.of("$SCALAR_QUERY", "convention", "BEAM_LOGICAL", "Rel")) {
      assertThat(run.err, not(containsString(plannerWord)));
    }
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
    Path ddl = directory.resolve("contradicting.sql");
    Files.writeString(
        ddl,
        withOption == null
            ? DDL
            : DDL.replace("'format' = 'json'", "'format' = 'json', " + withOption));
    List<String> args =
        new ArrayList<>(List.of("sql", "--ddl=@" + ddl, "--query=" + QUERY_OF_THE_REFUSALS));
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
    List<String> input = new ArrayList<>(records);
    input.add("{\"t\":null,\"i\":\"idx_a\",\"op\":\"es_sink\",\"v\":1,\"user\":\"u1\"}");
    Path file = directory.resolve("accounted.json");
    Files.write(file, input);
    Path ddl = directory.resolve("accounted.sql");
    Files.writeString(ddl, DDL);
    Outputs.Run run =
        Outputs.run(
            directory,
            "accounted",
            "sql",
            "--source=file:" + file,
            "--ddl=@" + ddl,
            "--query=SELECT i, COUNT(*) AS n FROM _source_table WHERE v IS NOT NULL"
                + WINDOW
                + ", i",
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
   * 600 records 10 ms apart from 1700000000005, each up to 1.9 s early or late of its place; every
   * 7th user is {@code null}, every 9th has no {@code user}, every 11th no {@code v}.
   */
  private static List<String> records() {
    Random random = new Random(11);
    String[][] keys = {{"idx_a", "es_sink"}, {"idx_a", "kafka_sink"}, {"idx_b", "es_sink"}};
    List<String> lines = new ArrayList<>();
    for (int n = 0; n < 600; n++) {
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
      lines.add(line.append('}').toString());
    }
    return lines;
  }

  private static Outputs.Run tidemark(String query, String name) throws Exception {
    String file = name.replaceAll("[^A-Za-z0-9-]", "_");
    Path input = directory.resolve(file + ".json");
    Files.write(input, records);
    Path ddl = directory.resolve(file + ".sql");
    Files.writeString(ddl, DDL);
    return Outputs.run(
        directory,
        file,
        "sql",
        "--source=file:" + input,
        "--ddl=@" + ddl,
        "--query=" + query,
        "--emit=final",
        "--runner=DirectRunner");
  }

  /** The final rows, each as its columns' texts joined by {@code |}, sorted. */
  private static List<String> finalRows(List<JsonNode> results) {
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

  /** What Flink SQL gives for {@code query} over the records, as {@link #finalRows}. */
  private static List<String> flinkSqlRows(String query) throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    List<Row> input = new ArrayList<>();
    for (String record : records) {
      JsonNode node = json.readTree(record);
      input.add(
          Row.of(
              node.get("t").asLong(),
              node.get("i").asText(),
              node.get("op").asText(),
              node.hasNonNull("v") ? node.get("v").asLong() : null,
              node.hasNonNull("user") ? node.get("user").asText() : null));
    }
    DataStream<Row> stream =
        flink.fromCollection(
            input,
            Types.ROW_NAMED(
                new String[] {"t", "i", "op", "v", "user"},
                Types.LONG,
                Types.STRING,
                Types.STRING,
                Types.LONG,
                Types.STRING));
    Table table =
        flinkSql.fromDataStream(
            stream,
            Schema.newBuilder()
                .column("t", DataTypes.BIGINT())
                .column("i", DataTypes.STRING())
                .column("op", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .column("user", DataTypes.STRING())
                .columnByExpression("rowtime", "CAST(TO_TIMESTAMP_LTZ(t, 3) AS TIMESTAMP(3))")
                .watermark("rowtime", "rowtime - INTERVAL '2' SECOND")
                .build());
    flinkSql.createTemporaryView("_source_table", table);
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<Row> results = flinkSql.executeSql(query).collect()) {
      while (results.hasNext()) {
        Row row = results.next();
        List<String> columns = new ArrayList<>();
        for (int c = 0; c < row.getArity(); c++) {
          Object value = row.getField(c);
          columns.add(
              value instanceof LocalDateTime time
                  ? time.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"))
                  : String.valueOf(value));
        }
        rows.add(String.join("|", columns));
      }
    } finally {
      flinkSql.dropTemporaryView("_source_table");
    }
    Collections.sort(rows);
    return rows;
  }
}
