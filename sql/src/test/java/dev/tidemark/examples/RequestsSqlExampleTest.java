package dev.tidemark.examples;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItems;

import dev.tidemark.sql.SqlPerWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The library guide's SQL example ({@code docs/library.md}): a windowed query over the user's own
 * {@code PCollection<Row>} with {@link SqlPerWindow}, its late rows kept. Kept as a test so it
 * cannot rot: the code between the GUIDE markers is the guide's, and {@link #theGuideShowsThisCode}
 * fails when the two differ.
 */
@ExtendWith(TestPipelineExtension.class)
class RequestsSqlExampleTest {

  // GUIDE-SQL-START
  /** Your rows: each element's timestamp is its event time, which the query calls rowtime. */
  static final Schema REQUEST =
      Schema.builder()
          .addStringField("host")
          .addStringField("status")
          .addInt64Field("bytes")
          .build();

  /** Bytes per host every 10 s, health checks left out; late rows kept for 30 s more. */
  static PCollectionTuple bytesPerHost(PCollection<Row> requests) {
    return requests.apply(
        "BytesPerHost",
        SqlPerWindow.of(
                "requests",
                "SELECT host, COUNT(*) AS n, SUM(bytes) AS total FROM requests"
                    + " WHERE status <> 'health'"
                    + " GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), host")
            .withAllowedLateness(Duration.standardSeconds(30)));
  }

  // GUIDE-SQL-END

  private static final Instant START = new Instant(1_700_000_000_000L);

  @Test
  void bytesPerHostAndTheRowThatCameTooLate(TestPipeline pipeline) {
    // GUIDE-SQL-TEST-START
    TestStream<Row> requests =
        TestStream.create(RowCoder.of(REQUEST))
            .addElements(
                request("web-1", "200", 100, 1_000),
                request("web-1", "health", 7, 2_000),
                request("web-2", "200", 40, 3_000))
            // The window [0 s, 10 s) closes, and expires 30 s later; then a row for it.
            .advanceWatermarkTo(START.plus(Duration.standardSeconds(45)))
            .addElements(request("web-1", "200", 900, 4_000))
            .advanceWatermarkToInfinity();
    PCollectionTuple out = bytesPerHost(pipeline.apply(requests));

    PAssert.that(
            out.get(SqlPerWindow.ROWS)
                .apply("FinalRows", Filter.by(row -> row.getBoolean("final")))
                .apply(
                    "HostAndTotal",
                    MapElements.into(TypeDescriptors.strings())
                        .via(row -> row.getString("host") + " " + row.getInt64("total"))))
        .containsInAnyOrder("web-1 100", "web-2 40");
    PAssert.that(
            out.get(SqlPerWindow.LATE)
                .apply(
                    "LateRows",
                    MapElements.into(TypeDescriptors.strings())
                        .via(r -> r.value().getString("host") + " " + r.value().getInt64("bytes"))))
        .containsInAnyOrder("web-1 900");
    pipeline.run().waitUntilFinish();
    // GUIDE-SQL-TEST-END
  }

  private static TimestampedValue<Row> request(
      String host, String status, long bytes, long afterStart) {
    return TimestampedValue.of(
        Row.withSchema(REQUEST).addValues(host, status, bytes).build(),
        START.plus(Duration.millis(afterStart)));
  }

  /** Every import the guide gives its SQL example is one this test, which runs that code, has. */
  @Test
  void theGuidesImportsAreThisTestsOwn() throws Exception {
    String guide = GuideBlocks.guide();
    int start = guide.indexOf("```java\nimport dev.tidemark.sql.SqlPerWindow;");
    List<String> guideImports =
        guide.substring(start, guide.indexOf("```\n", start + 7)).lines().skip(1).toList();
    List<String> ownImports =
        Files.readAllLines(
            Path.of("src/test/java/dev/tidemark/examples/RequestsSqlExampleTest.java"));

    assertThat(guideImports.size(), greaterThan(10));
    assertThat(ownImports, hasItems(guideImports.toArray(String[]::new)));
  }

  @Test
  void theGuideShowsThisCode() throws Exception {
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(RequestsSqlExampleTest.class, "GUIDE-SQL-START", "GUIDE-SQL-END")));
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(
                RequestsSqlExampleTest.class, "GUIDE-SQL-TEST-START", "GUIDE-SQL-TEST-END")));
  }
}
