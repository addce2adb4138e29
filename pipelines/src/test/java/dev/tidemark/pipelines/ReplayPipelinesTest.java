package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.pipelines.config.EventTimeOptions;
import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.LineShape;
import dev.tidemark.transforms.join.CopyJsonField;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.testing.ReplayReference;
import dev.tidemark.transforms.testing.ReplayReference.Pane;
import dev.tidemark.transforms.testing.ReplayReference.Recording;
import dev.tidemark.transforms.testing.SuiteOrder;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code count}, {@code metrics} and {@code join} replay long recordings (thousands of windows,
 * records late within the allowed lateness and beyond it, malformed records) from their command
 * lines, and every pane they write, with its timing, index and finality, equals what {@link
 * ReplayReference} predicts from the files; so do the late records and the dead letters. On the
 * DirectRunner and on embedded Flink at parallelism 1, 2 and 4.
 */
@Order(SuiteOrder.LONG)
class ReplayPipelinesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  @TempDir static Path directory;

  static Stream<Arguments> runners() {
    return Stream.of(
        Arguments.of("DirectRunner", 2),
        Arguments.of("FlinkRunner", 1),
        Arguments.of("FlinkRunner", 2),
        Arguments.of("FlinkRunner", 4));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void countWritesThePredictedPanes(String runner, int parallelism) throws Exception {
    Path input = directory.resolve("clicks.csv");
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(4000)
        .withKeys(3)
        .withOutOfOrderness(Duration.millis(1500))
        .withLateFraction(0.02)
        .withBadFraction(0.01)
        .withSeed(11)
        .open()
        .forEachRemaining(lines::add);
    Files.write(input, lines);
    ReplayReference reference =
        ReplayReference.of(
            new Recording(lines, CsvEventFormat.keyAndTime(), Duration.millis(1000)),
            windowing(1000, 500));
    Outputs.Run run =
        Outputs.run(
            directory,
            "count-" + runner + parallelism,
            "count",
            "--source=file:" + input,
            "--windowSize=1000ms",
            "--maxOutOfOrderness=1000ms",
            "--allowedLateness=500ms",
            "--runner=" + runner,
            "--parallelism=" + parallelism);

    assertThat(reference.late.size(), greaterThan(20));
    assertThat(reference.latePanes(), greaterThan(20L));
    assertThat(
        sorted(run.results(), ReplayPipelinesTest::describeCount),
        equalTo(reference.panes(Pane::describe)));
    assertThat(run.records("late"), equalTo(reference.late));
    assertThat(run.records("deadLetter"), equalTo(reference.dead));
    assertThat(
        run.summary(),
        equalTo(
            "tidemark: 4000 records in, "
                + reference.panes.size()
                + " results out, "
                + reference.late.size()
                + " late, "
                + reference.dead.size()
                + " dead letters"));
  }

  static Stream<Arguments> kinds() {
    return Stream.of(
        Arguments.of("DirectRunner", "--windowSize=1000ms --windowSlide=250ms"),
        Arguments.of("FlinkRunner", "--windowSize=1000ms --windowSlide=250ms"),
        Arguments.of("DirectRunner", "--windowSize=2000ms --windowStep=500ms"),
        Arguments.of("DirectRunner", "--sessionGap=300ms"),
        Arguments.of("FlinkRunner", "--sessionGap=300ms"));
  }

  /**
   * {@code count} with sliding, cumulating and session windows over a recording: every pane of
   * every window as the reference predicts it (sessions merging in the order the records arrived),
   * each late record once, and a summary line that accounts for them.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("kinds")
  void countOfEveryKindOfWindowWritesThePredictedPanes(String runner, String windows)
      throws Exception {
    Path input = directory.resolve("kinds.csv");
    List<String> lines = new ArrayList<>();
    // 150 ms apart: a key's records are often more than a 300 ms gap apart, so sessions end.
    GeneratedLines.records(3000)
        .withKeys(3)
        .withStep(Duration.millis(150))
        .withOutOfOrderness(Duration.millis(3500))
        .withLateFraction(0.02)
        .withBadFraction(0.01)
        .withSeed(13)
        .open()
        .forEachRemaining(lines::add);
    Files.write(input, lines);
    EventTimeWindowing kind =
        EventTimeOptions.windowKind(
            PipelineOptionsFactory.fromArgs(windows.split(" ")).as(CountPipeline.Options.class),
            PipelineOptionsFactory.fromArgs(windows.split(" "))
                .as(CountPipeline.Options.class)
                .getWindowSize());
    ReplayReference reference =
        ReplayReference.of(
            new Recording(lines, CsvEventFormat.keyAndTime(), Duration.millis(1000)),
            kind.withAllowedLateness(Duration.millis(1500)));
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "count",
                "--source=file:" + input,
                "--maxOutOfOrderness=1000ms",
                "--allowedLateness=1500ms",
                "--runner=" + runner,
                "--parallelism=2"));
    arguments.addAll(List.of(windows.split(" ")));
    Outputs.Run run =
        Outputs.run(
            directory,
            "count-" + runner + windows.replaceAll("[^A-Za-z0-9]", ""),
            arguments.toArray(String[]::new));

    assertThat(reference.late.size(), greaterThan(20));
    assertThat(reference.latePanes(), greaterThan(20L));
    assertThat(
        sorted(run.results(), ReplayPipelinesTest::describeCount),
        equalTo(reference.panes(Pane::describe)));
    assertThat(run.records("late"), equalTo(reference.late));
    assertThat(run.records("deadLetter"), equalTo(reference.dead));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void metricsWritesThePredictedPanes(String runner, int parallelism) throws Exception {
    Path input = directory.resolve("stats.json");
    List<String> lines =
        generated(
            GeneratedLines.records(6000)
                .withKeys(2)
                .withStep(Duration.millis(25))
                .withOutOfOrderness(Duration.millis(2500))
                .withLateFraction(0.02)
                .withBadFraction(0.01)
                .withSeed(21)
                .withShape(LineShape.S5_STATS));
    Files.write(input, lines);
    ReplayReference reference =
        ReplayReference.of(
            new Recording(
                lines, JsonEventFormat.withKey("i", "op").withTime("t"), Duration.millis(2000)),
            windowing(1000, 1000));
    Outputs.Run run =
        Outputs.run(
            directory,
            "metrics-" + runner + parallelism,
            "metrics",
            "--source=file:" + input,
            "--allowedLateness=1s",
            "--runner=" + runner,
            "--parallelism=" + parallelism);

    assertThat(reference.late.size(), greaterThan(20));
    assertThat(reference.latePanes(), greaterThan(20L));
    assertThat(
        sorted(run.results(), ReplayPipelinesTest::describeMetrics),
        equalTo(reference.panes(ReplayPipelinesTest::describeMetrics)));
    assertThat(run.records("late"), equalTo(reference.late));
    assertThat(run.records("deadLetter"), equalTo(reference.dead));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void joinWritesThePredictedPanes(String runner, int parallelism) throws Exception {
    Path orders = directory.resolve("orders.json");
    Path coupons = directory.resolve("coupons.json");
    List<String> orderLines =
        generated(
            GeneratedLines.records(2000)
                .withKeys(15)
                .withStep(Duration.millis(100))
                .withOutOfOrderness(Duration.millis(7000))
                .withLateFraction(0.02)
                .withSeed(31)
                .withShape(LineShape.S4_ORDERS));
    List<String> couponLines =
        generated(
            GeneratedLines.records(500)
                .withKeys(15)
                .withStep(Duration.millis(400))
                .withOutOfOrderness(Duration.millis(7000))
                .withLateFraction(0.02)
                .withSeed(32)
                .withShape(LineShape.S4_COUPONS));
    Files.write(orders, orderLines);
    Files.write(coupons, couponLines);
    ReplayReference reference =
        ReplayReference.of(
            List.of(
                new Recording(
                    orderLines,
                    JsonEventFormat.withKey("orderBatchId").withTime("orderLastModifyTime"),
                    Duration.standardSeconds(5)),
                new Recording(
                    couponLines,
                    JsonEventFormat.withKey("orderBatchId").withTime("lastModifyTime"),
                    Duration.standardSeconds(5))),
            windowing(5000, 2000));
    Outputs.Run run =
        Outputs.run(
            directory,
            "join-" + runner + parallelism,
            "join",
            "--orders=file:" + orders,
            "--coupons=file:" + coupons,
            "--allowedLateness=2s",
            "--runner=" + runner,
            "--parallelism=" + parallelism);

    assertThat(reference.late.size(), greaterThan(20));
    assertThat(reference.latePanes(), greaterThan(20L));
    List<String> expected = expectedJoin(reference);
    assertThat("one line per order and pane", expected.size(), greaterThan(orderLines.size()));
    assertThat(sorted(run.results(), ReplayPipelinesTest::describeJoined), equalTo(expected));
    assertThat(run.records("late"), equalTo(reference.late));
  }

  private static EventTimeWindowing windowing(long sizeMillis, long latenessMillis) {
    return EventTimeWindowing.fixed(Duration.millis(sizeMillis))
        .withAllowedLateness(Duration.millis(latenessMillis));
  }

  private static String describeCount(JsonNode result) {
    return result.get("key").asText()
        + ","
        + result.get("windowStart").asLong()
        + "-"
        + result.get("windowEnd").asLong()
        + " "
        + pane(result)
        + result.get("count").asLong()
        + "/0";
  }

  private static String describeMetrics(JsonNode row) {
    return row.get("index_name").asText()
        + "|"
        + row.get("op_type").asText()
        + "|"
        + row.get("event_time_log").asText()
        + " "
        + pane(row)
        + row.get("count_result").asLong();
  }

  private static String describeMetrics(Pane pane) {
    try {
      JsonNode key = JSON.readTree(pane.key());
      return key.get(0).asText()
          + "|"
          + key.get(1).asText()
          + "|"
          + SECONDS.format(java.time.Instant.ofEpochMilli(pane.windowEnd()))
          + " "
          + pane.timing()
          + "#"
          + pane.index()
          + (pane.isFinal() ? " final " : " ")
          + pane.count();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String describeJoined(JsonNode joined) {
    return joined.get("orderId").asText()
        + "->"
        + joined.get("orderSalesmanId").asText()
        + "@"
        + joined.get("windowStart").asLong()
        + " "
        + pane(joined);
  }

  /** Each order of each predicted pane, with the newest coupon of that pane, or null. */
  private static List<String> expectedJoin(ReplayReference reference) throws Exception {
    CopyJsonField merge = CopyJsonField.from("receiveUserId").into("orderSalesmanId");
    List<String> expected = new ArrayList<>();
    for (Pane pane : reference.panes) {
      Event newest =
          pane.records().stream()
              .filter(event -> event.raw().contains("receiveUserId"))
              .max(Comparator.comparing(Event::eventTime).thenComparing(Event::raw))
              .orElse(null);
      for (Event order : pane.records()) {
        if (!order.raw().contains("receiveUserId")) {
          JsonNode merged =
              JSON.readTree(merge.merge(order.raw(), newest == null ? null : newest.raw()));
          expected.add(
              merged.get("orderId").asText()
                  + "->"
                  + merged.get("orderSalesmanId").asText()
                  + "@"
                  + pane.windowStart()
                  + " "
                  + pane.timing()
                  + "#"
                  + pane.index()
                  + (pane.isFinal() ? " final " : " "));
        }
      }
    }
    expected.sort(Comparator.naturalOrder());
    return expected;
  }

  private static String pane(JsonNode result) {
    return result.get("timing").asText()
        + "#"
        + result.get("pane").asLong()
        + (result.get("final").asBoolean() ? " final " : " ");
  }

  private static List<String> sorted(List<JsonNode> results, Function<JsonNode, String> describe) {
    List<String> described = new ArrayList<>();
    results.forEach(result -> described.add(describe.apply(result)));
    described.sort(Comparator.naturalOrder());
    return described;
  }

  private static List<String> generated(GeneratedLines recording) throws Exception {
    List<String> lines = new ArrayList<>();
    recording.open().forEachRemaining(lines::add);
    return lines;
  }
}
