package dev.tidemark.sql;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.testing.BeamCounters;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SqlPerWindow} over a Beam user's own {@code PCollection<Row>}: the query's rows per group
 * and window, a null field as SQL's {@code NULL}, on the DirectRunner and on Flink. Every row is
 * added before the watermark moves, so the outcome does not depend on how Flink's TestStream orders
 * elements and watermarks; a late row is checked on the DirectRunner, whose TestStream keeps that
 * order.
 */
class SqlPerWindowTest {

  static final Schema REQUEST =
      Schema.builder()
          .addStringField("host")
          .addStringField("status")
          .addInt64Field("bytes")
          .addNullableField("latency", Schema.FieldType.DOUBLE)
          .build();

  static final String QUERY =
      "SELECT host, TUMBLE_START(rowtime, INTERVAL '10' SECOND) AS ws, COUNT(*) AS n,"
          + " SUM(bytes) AS total, MAX(latency) AS worst FROM requests"
          + " WHERE status <> 'health' GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), host";

  static final long BASE = 1700000000000L;

  @ParameterizedTest(name = "{0} at parallelism {1}")
  @CsvSource({"DirectRunner, 1", "FlinkRunner, 1", "FlinkRunner, 2"})
  void theQuerysRowsPerGroupAndWindowWithANullFieldAsSqlsNull(String runner, int parallelism) {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(
                request("web-1", "200", 100, 0.5, 1000),
                request("web-1", "200", 50, 1.5, 2000),
                request("web-1", "health", 7, 9.0, 3000),
                request("web-2", "200", 1, null, 4000),
                request("web-1", "500", 10, 2.0, 12000))
            .advanceWatermarkToInfinity();
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, parallelism));
    Collected finals = new Collected();
    Collected dead = new Collected();
    PCollectionTuple out =
        pipeline.apply(requests).apply(SqlPerWindow.of("requests", QUERY).withFinalPaneOnly());
    out.get(SqlPerWindow.ROWS)
        .apply("Finals", MapElements.into(TypeDescriptors.strings()).via(SqlPerWindowTest::text))
        .apply(finals.sink());
    out.get(SqlPerWindow.DEAD_LETTER)
        .apply("Reasons", MapElements.into(TypeDescriptors.strings()).via(d -> d.reason()))
        .apply(dead.sink());

    pipeline.run().waitUntilFinish();

    assertThat(
        finals.snapshot(),
        containsInAnyOrder(
            "web-1|2023-11-14T22:13:20.000Z|2|150|1.5|ON_TIME|true",
            "web-1|2023-11-14T22:13:30.000Z|1|10|2.0|ON_TIME|true",
            // MAX of only NULL is NULL, as in Flink SQL: the row is not a dead letter.
            "web-2|2023-11-14T22:13:20.000Z|1|1|null|ON_TIME|true"));
    assertThat(dead.snapshot(), empty());
  }

  /**
   * A late row is in the late output with its window and the watermark it met; a late row that
   * {@code WHERE} filters out is in no output and counted once, as filtered, not as late.
   */
  @Test
  void aRowAfterItsWindowExpiredIsLateWithItsWindowAndWatermark() {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(request("web-1", "200", 100, 0.5, 1000))
            .advanceWatermarkTo(new Instant(BASE + 15000))
            .addElements(
                request("web-1", "200", 5, 7.0, 2500), request("web-1", "health", 9, 1.0, 2600))
            .advanceWatermarkToInfinity();
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("DirectRunner", 1));
    Collected finals = new Collected();
    Collected late = new Collected();
    PCollectionTuple out = pipeline.apply(requests).apply(SqlPerWindow.of("requests", QUERY));
    out.get(SqlPerWindow.ROWS)
        .apply("Finals", MapElements.into(TypeDescriptors.strings()).via(SqlPerWindowTest::text))
        .apply(finals.sink());
    out.get(SqlPerWindow.LATE)
        .apply(
            "Late",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    r ->
                        r.value().getValues()
                            + " "
                            + r.window().start().getMillis()
                            + " "
                            + r.watermark().getMillis()))
        .apply(late.sink());

    PipelineResult result = pipeline.run();
    result.waitUntilFinish();

    assertThat(
        finals.snapshot(),
        containsInAnyOrder("web-1|2023-11-14T22:13:20.000Z|1|100|0.5|ON_TIME|true"));
    assertThat(BeamCounters.tidemark(result, TidemarkMetrics.LATE_RECORDS), equalTo(1L));
    assertThat(BeamCounters.tidemark(result, TidemarkMetrics.FILTERED_RECORDS), equalTo(1L));
    assertThat(BeamCounters.tidemark(result, TidemarkMetrics.RESULTS_OUT), equalTo(1L));
    assertThat(
        late.snapshot(), containsInAnyOrder("[web-1, 200, 5, 7.0] " + BASE + " " + (BASE + 15000)));
  }

  /**
   * Flink SQL's session group window over a Beam user's rows: a late row within the lateness joins
   * two sessions after a row of the first came out, and that row is withdrawn by one naming the
   * merged session; {@code SESSION_END} is the merged session's end.
   */
  @Test
  void aSessionRowThatMergedIntoAnotherIsWithdrawnByARowNamingIt() {
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .advanceWatermarkTo(new Instant(0))
            .addElements(request("web-1", "200", 1, 0.5, 0), request("web-1", "200", 2, 0.5, 1500))
            // [0 s, 1 s) closes and gives its row; [1.5 s, 2.5 s) stays open.
            .advanceWatermarkTo(new Instant(BASE + 1200))
            // Late for [0 s, 1 s), within the lateness: [0.8 s, 1.8 s) joins the two.
            .addElements(request("web-1", "200", 4, 0.5, 800))
            .advanceWatermarkToInfinity();
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("DirectRunner", 1));
    Collected rows = new Collected();
    PCollectionTuple out =
        pipeline
            .apply(requests)
            .apply(
                SqlPerWindow.of(
                        "requests",
                        "SELECT host, SESSION_START(rowtime, INTERVAL '1' SECOND) AS s,"
                            + " SESSION_END(rowtime, INTERVAL '1' SECOND) AS e, SUM(bytes) AS total"
                            + " FROM requests GROUP BY SESSION(rowtime, INTERVAL '1' SECOND), host")
                    .withAllowedLateness(org.joda.time.Duration.standardSeconds(10)));
    out.get(SqlPerWindow.ROWS)
        .apply(
            "Rows",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    row ->
                        (row.getDateTime("s").getMillis() - BASE)
                            + ".."
                            + (row.getDateTime("e").getMillis() - BASE)
                            + " "
                            + row.getString("timing")
                            + (row.getBoolean("final") ? " final" : "")
                            + (row.getDateTime("merged_into_end") == null
                                ? ""
                                : " merged into "
                                    + (row.getDateTime("merged_into_start").getMillis() - BASE)
                                    + ".."
                                    + (row.getDateTime("merged_into_end").getMillis() - BASE))
                            + " = "
                            + row.getInt64("total")))
        .apply(rows.sink());

    pipeline.run().waitUntilFinish();

    assertThat(
        rows.snapshot(),
        containsInAnyOrder(
            "0..1000 ON_TIME = 1",
            "0..1000 LATE final merged into 0..2500 = 1",
            "0..2500 ON_TIME = 7",
            "0..2500 LATE final = 7"));
  }

  @Test
  void aQueryItDoesNotRunFailsTheConstructionAndSaysWhy() {
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("DirectRunner", 1));
    TestStream<Row> requests = TestStream.create(RowCoder.of(REQUEST)).advanceWatermarkToInfinity();

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                pipeline
                    .apply(requests)
                    .apply(
                        SqlPerWindow.of(
                            "requests", "SELECT host, COUNT(*) FROM requests GROUP BY host")));
    assertThat(e.getMessage(), containsString("a GROUP BY without TUMBLE"));
  }

  private static TimestampedValue<Row> request(
      String host, String status, long bytes, Double latency, long at) {
    return TimestampedValue.of(
        Row.withSchema(REQUEST).addValues(host, status, bytes, latency).build(),
        new Instant(BASE + at));
  }

  private static String text(Row row) {
    return row.getString("host")
        + "|"
        + row.getDateTime("ws")
        + "|"
        + row.getInt64("n")
        + "|"
        + row.getInt64("total")
        + "|"
        + row.getDouble("worst")
        + "|"
        + row.getString("timing")
        + "|"
        + row.getBoolean("final");
  }
}
