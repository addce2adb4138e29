package dev.tidemark.sql;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Window Top-N and window deduplication on the pane engine, over a Beam user's rows: the top N of
 * each window when it closes, on the DirectRunner and on Flink; a late row within the lateness
 * ranks the window anew, in a pane of its own; a row past it is a late row; and the shapes {@code
 * sql} does not take are refused in one line that names them.
 */
class WindowTopNTest {

  private static final Schema REQUEST =
      Schema.builder().addStringField("host").addInt64Field("bytes").build();

  private static final long BASE = 1700000000000L;

  /** The two hosts with the most requests in each 10 s window, ties to the first host by name. */
  private static final String TOP_HOSTS =
      "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end"
          + " ORDER BY n DESC, host) AS rownum FROM (SELECT window_start, window_end, host,"
          + " COUNT(*) AS n FROM TABLE(TUMBLE(TABLE requests, DESCRIPTOR(rowtime),"
          + " INTERVAL '10' SECOND)) GROUP BY window_start, window_end, host)) WHERE rownum <= 2";

  @ParameterizedTest(name = "{0} at parallelism {1}")
  @CsvSource({"DirectRunner, 1", "FlinkRunner, 2"})
  void eachWindowsTopNComesOutWhenItCloses(String runner, int parallelism) {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(
                request("a", 1, 1000),
                request("b", 1, 1500),
                request("c", 1, 2000),
                request("b", 1, 2500),
                request("c", 1, 3000),
                request("a", 1, 3500),
                request("d", 1, 4000),
                request("d", 1, 12000),
                request("e", 1, 13000),
                request("e", 1, 14000))
            .advanceWatermarkToInfinity();

    assertThat(
        finalRows(runner, parallelism, requests, TOP_HOSTS, Duration.ZERO),
        containsInAnyOrder(
            // a, b and c have 2 each: the first two by name.
            "22:13:20|a|2|1|ON_TIME",
            "22:13:20|b|2|2|ON_TIME",
            "22:13:30|e|2|1|ON_TIME",
            "22:13:30|d|1|2|ON_TIME"));
  }

  /**
   * Once the window's rows came out, each late row within the allowed lateness fires the window
   * again with its top two as they are then: the second late row of {@code c} makes it the second
   * host. When the lateness ends, the final pane has the top two once more. A row after the
   * lateness is a late row and ranks nothing.
   */
  @Test
  void aLateRowWithinTheLatenessRanksTheWindowAnew() {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(
                request("a", 1, 1000),
                request("a", 1, 1500),
                request("a", 1, 2000),
                request("b", 1, 2500),
                request("b", 1, 3000),
                request("c", 1, 3500))
            .advanceWatermarkTo(new Instant(BASE + 12_000))
            .addElements(request("c", 1, 4000))
            .addElements(request("c", 1, 4500))
            .advanceWatermarkTo(new Instant(BASE + 40_000))
            .addElements(request("b", 1, 5000))
            .advanceWatermarkToInfinity();
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("DirectRunner", 1));
    Collected rows = new Collected();
    Collected late = new Collected();
    PCollectionTuple out =
        pipeline
            .apply(requests)
            .apply(
                SqlPerWindow.of("requests", TOP_HOSTS)
                    .withAllowedLateness(Duration.standardSeconds(20)));
    out.get(SqlPerWindow.ROWS)
        .apply(
            "Rows",
            MapElements.into(TypeDescriptors.strings())
                .via(row -> text(row) + "|" + row.getBoolean("final")))
        .apply(rows.sink());
    out.get(SqlPerWindow.LATE)
        .apply("Late", MapElements.into(TypeDescriptors.strings()).via(r -> "" + r.value()))
        .apply(late.sink());

    pipeline.run().waitUntilFinish();

    assertThat(
        rows.snapshot(),
        containsInAnyOrder(
            "22:13:20|a|3|1|ON_TIME|false",
            "22:13:20|b|2|2|ON_TIME|false",
            // c's two tie with b's: by name, b first.
            "22:13:20|a|3|1|LATE|false",
            "22:13:20|b|2|2|LATE|false",
            // c's three tie with a's: by name, a first.
            "22:13:20|a|3|1|LATE|false",
            "22:13:20|c|3|2|LATE|false",
            // When the window expires, its final rows.
            "22:13:20|a|3|1|LATE|true",
            "22:13:20|c|3|2|LATE|true"));
    assertThat(late.snapshot().size(), equalTo(1));
    assertThat(late.snapshot().get(0), containsString("b"));
  }

  /**
   * A condition beside the rank's bound keeps the rows of the top N that meet it, their ranks as
   * they were, as Flink SQL filters after it ranks: of a (2 rows) and b (1 row), only a has more
   * than one row; b is not replaced by the third host.
   */
  @Test
  void aConditionBesideTheRanksBoundKeepsTheTopRowsThatMeetIt() {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(
                request("a", 1, 1000),
                request("a", 1, 1500),
                request("b", 1, 2000),
                request("c", 1, 2500),
                request("d", 1, 12000),
                request("e", 1, 13000))
            .advanceWatermarkToInfinity();
    String query =
        TOP_HOSTS.replace(
            "WHERE rownum <= 2", "WHERE rownum <= 2 AND (n > 1 OR host IN ('d', 'x'))");

    assertThat(
        finalRows("DirectRunner", 1, requests, query, Duration.ZERO),
        containsInAnyOrder("22:13:20|a|2|1|ON_TIME", "22:13:30|d|1|1|ON_TIME"));
  }

  /** The two hosts with the most requests among the sessions that end at the same instant. */
  private static final String TOP_SESSIONS =
      "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end"
          + " ORDER BY n DESC) AS rownum FROM (SELECT window_start, window_end, host,"
          + " COUNT(*) AS n FROM TABLE(SESSION(TABLE requests PARTITION BY host,"
          + " DESCRIPTOR(rowtime), INTERVAL '2' SECOND)) GROUP BY window_start, window_end, host))"
          + " WHERE rownum <= 2";

  /**
   * A Top-N over a session aggregate ranks, as Flink SQL 1.19 does, the hosts whose sessions end at
   * the same instant, each row with its own session's start: a's and b's sessions are [1 s, 4 s),
   * f's [2 s, 4 s), c's [1 s, 3 s), and d's and e's [10 s, 12 s). z's records, which WHERE filters
   * out, rank nowhere. Each pane step's key is a host, so at parallelism 2 the hosts of one ranking
   * are decided apart.
   */
  @ParameterizedTest(name = "{0} at parallelism {1}")
  @CsvSource({"DirectRunner, 1", "FlinkRunner, 2"})
  void theHostsWhoseSessionsEndTogetherAreRankedTogether(String runner, int parallelism) {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(
                request("a", 1, 1000),
                request("b", 1, 1000),
                request("c", 1, 1000),
                request("b", 1, 1500),
                request("a", 1, 2000),
                request("b", 1, 2000),
                request("f", 1, 2000),
                request("f", 1, 2000),
                request("f", 1, 2000),
                request("f", 1, 2000),
                request("d", 1, 10000),
                request("e", 1, 10000),
                request("e", 1, 10000),
                request("z", 1, 1000),
                request("z", 1, 1500),
                request("z", 1, 2000),
                request("z", 1, 2000),
                request("z", 1, 2000))
            .advanceWatermarkToInfinity();
    String query = TOP_SESSIONS.replace(" GROUP BY", " WHERE host <> 'z' GROUP BY");

    assertThat(
        finalRows(runner, parallelism, requests, query, Duration.ZERO),
        containsInAnyOrder(
            "22:13:22|f|4|1|ON_TIME",
            "22:13:21|b|3|2|ON_TIME",
            "22:13:21|c|1|1|ON_TIME",
            "22:13:30|e|2|1|ON_TIME",
            "22:13:30|d|1|2|ON_TIME"));
  }

  /**
   * A late record within the lateness makes c's closed session [1 s, 3 s), which ends with a's, [1
   * s, 4.5 s): the rows of the ranking of the sessions that end at 3 s are withdrawn, as merged
   * into c's new session, and a is ranked alone; c is ranked under its new end at once, in a LATE
   * pane; b's ranking is not touched. Each ranking is final when its sessions expire.
   */
  @Test
  void aSessionThatGrowsLateLeavesItsRankingForTheRankingOfItsNewBounds() {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(
                request("a", 1, 1000),
                request("b", 1, 1000),
                request("c", 1, 1000),
                request("b", 1, 2000))
            .advanceWatermarkTo(new Instant(BASE + 5_000))
            .addElements(request("c", 1, 2500))
            .advanceWatermarkToInfinity();
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("DirectRunner", 1));
    Collected rows = new Collected();
    pipeline
        .apply(requests)
        .apply(
            SqlPerWindow.of("requests", TOP_SESSIONS)
                .withAllowedLateness(Duration.standardSeconds(20)))
        .get(SqlPerWindow.ROWS)
        .apply(
            "Rows",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    row ->
                        text(row)
                            + "|"
                            + clock(row.getDateTime("window_end").toString())
                            + "|"
                            + row.getBoolean("final")
                            + "|"
                            + mergedIntoEnd(row)))
        .apply(rows.sink());

    pipeline.run().waitUntilFinish();

    assertThat(
        rows.snapshot(),
        containsInAnyOrder(
            // a's and c's sessions are [1 s, 3 s), b's [1 s, 4 s).
            "22:13:21|a|1|1|ON_TIME|22:13:23|false|null",
            "22:13:21|c|1|2|ON_TIME|22:13:23|false|null",
            "22:13:21|b|2|1|ON_TIME|22:13:24|false|null",
            // c's late record: the ranking of [1 s, 3 s) is withdrawn, then a is ranked alone.
            "22:13:21|a|1|1|LATE|22:13:23|false|22:13:24",
            "22:13:21|c|1|2|LATE|22:13:23|false|22:13:24",
            "22:13:21|a|1|1|LATE|22:13:23|false|null",
            "22:13:21|c|2|1|LATE|22:13:24|false|null",
            // When the sessions expire, their final rows.
            "22:13:21|a|1|1|LATE|22:13:23|true|null",
            "22:13:21|b|2|1|LATE|22:13:24|true|null",
            "22:13:21|c|2|1|LATE|22:13:24|true|null"));
  }

  /** Window deduplication: per host and window, the first row by event time, or the last. */
  @ParameterizedTest(name = "ORDER BY rowtime {0}")
  @CsvSource({"ASC, 22:13:20|a|1", "DESC, 22:13:20|a|3"})
  void windowDeduplicationKeepsTheFirstOrTheLastRow(String direction, String expectedFirstWindow) {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(request("a", 2, 1500), request("a", 1, 1000), request("a", 3, 2000))
            .advanceWatermarkToInfinity();
    String query =
        "SELECT host, bytes, window_start FROM (SELECT host, bytes, window_start, ROW_NUMBER()"
            + " OVER (PARTITION BY window_start, window_end, host ORDER BY rowtime "
            + direction
            + ") AS rownum FROM TABLE(TUMBLE(TABLE requests, DESCRIPTOR(rowtime), INTERVAL '10'"
            + " SECOND))) WHERE rownum = 1";
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("DirectRunner", 1));
    Collected rows = new Collected();
    pipeline
        .apply(requests)
        .apply(SqlPerWindow.of("requests", query))
        .get(SqlPerWindow.ROWS)
        .apply(
            "Rows",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    row ->
                        clock(row.getDateTime("window_start").toString())
                            + "|"
                            + row.getString("host")
                            + "|"
                            + row.getInt64("bytes")))
        .apply(rows.sink());

    pipeline.run().waitUntilFinish();

    assertThat(rows.snapshot(), containsInAnyOrder(expectedFirstWindow));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "without the window in PARTITION BY | TUMBLE(TABLE requests, DESCRIPTOR(rowtime), INTERVAL"
            + " '10' SECOND) | PARTITION BY host | rownum <= 2 | must name window_start and"
            + " window_end",
        "a rank other than the first | TUMBLE(TABLE requests, DESCRIPTOR(rowtime), INTERVAL '10'"
            + " SECOND) | PARTITION BY window_start, window_end | rownum = 2 | outer WHERE has"
            + " rownum <= N",
        "no bound of the rank | TUMBLE(TABLE requests, DESCRIPTOR(rowtime), INTERVAL '10'"
            + " SECOND) | PARTITION BY window_start, window_end | n > 1 AND host <> 'a' | outer"
            + " WHERE has rownum <= N",
        "the bound between two conditions | TUMBLE(TABLE requests, DESCRIPTOR(rowtime),"
            + " INTERVAL '10' SECOND) | PARTITION BY window_start, window_end | n > 1 AND rownum"
            + " <= 2 AND host <> 'a' | comes first or last",
        "a subquery beside the rank | TUMBLE(TABLE requests, DESCRIPTOR(rowtime), INTERVAL '10'"
            + " SECOND) | PARTITION BY window_start, window_end | rownum <= 2 AND EXISTS (SELECT n"
            + " FROM tidemark_ranked_rows) | without a subquery",
        "a partition that is not a group | TUMBLE(TABLE requests, DESCRIPTOR(rowtime), INTERVAL"
            + " '10' SECOND) | PARTITION BY window_start, window_end, n | rownum <= 2 | PARTITION"
            + " BY n: a window Top-N over an aggregate partitions by the aggregate's GROUP BY"
            + " columns"
      })
  void aTopNSqlDoesNotTakeIsRefusedNamingWhy(
      String name, String window, String partition, String where, String refusal) throws Exception {
    String query =
        "SELECT * FROM (SELECT *, ROW_NUMBER() OVER ("
            + partition
            + " ORDER BY n DESC) AS rownum FROM (SELECT window_start, window_end, host, COUNT(*)"
            + " AS n FROM TABLE("
            + window
            + ") GROUP BY window_start, window_end, host)) WHERE "
            + where;
    SqlTable table = SqlTable.ofRows("requests", REQUEST);

    InvalidQueryException refused =
        assertThrows(InvalidQueryException.class, () -> WindowedQuery.plan(table, query));

    assertThat(refused.getMessage(), containsString(refusal));
    assertThat(refused.getMessage(), containsString("sql takes"));
  }

  /** An error in the ranked rows' expressions names its place in the query as it was typed. */
  @Test
  void anUnknownColumnAmongTheRankedRowsNamesItsPlaceInTheQuery() throws Exception {
    String query =
        String.join(
            "\n",
            "SELECT * FROM (",
            "  SELECT host, bites, ROW_NUMBER() OVER (PARTITION BY window_start, window_end"
                + " ORDER BY bytes DESC) AS rownum",
            "  FROM TABLE(TUMBLE(TABLE requests, DESCRIPTOR(rowtime), INTERVAL '10' SECOND)))",
            "WHERE rownum <= 2");
    SqlTable table = SqlTable.ofRows("requests", REQUEST);

    InvalidQueryException unknown =
        assertThrows(InvalidQueryException.class, () -> WindowedQuery.plan(table, query));

    int column = query.lines().toList().get(1).indexOf("bites") + 1;
    assertThat(
        unknown.getMessage(),
        startsWith("at line 2, column " + column + ": there is no column 'bites'"));
    assertThat(unknown.line(), equalTo(2));
    assertThat(unknown.column(), equalTo(column));
  }

  private static java.util.List<String> finalRows(
      String runner, int parallelism, TestStream<Row> input, String query, Duration lateness) {
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, parallelism));
    Collected rows = new Collected();
    pipeline
        .apply(input)
        .apply(SqlPerWindow.of("requests", query).withAllowedLateness(lateness))
        .get(SqlPerWindow.ROWS)
        .apply("Rows", MapElements.into(TypeDescriptors.strings()).via(WindowTopNTest::text))
        .apply(rows.sink());
    pipeline.run().waitUntilFinish();
    return rows.snapshot().stream().collect(Collectors.toList());
  }

  private static TimestampedValue<Row> request(String host, long bytes, long millis) {
    return TimestampedValue.of(
        Row.withSchema(REQUEST).addValues(host, bytes).build(), new Instant(BASE + millis));
  }

  private static String text(Row row) {
    return clock(row.getDateTime("window_start").toString())
        + "|"
        + row.getString("host")
        + "|"
        + row.getInt64("n")
        + "|"
        + row.getInt64("rownum")
        + "|"
        + row.getString("timing");
  }

  /** The time of day a withdrawn session's row names its larger session's end; else null. */
  private static String mergedIntoEnd(Row row) {
    return row.getDateTime("merged_into_end") == null
        ? "null"
        : clock(row.getDateTime("merged_into_end").toString());
  }

  /** The time of day of an ISO-8601 instant, to the second. */
  private static String clock(String instant) {
    return instant.substring(11, 19);
  }
}
