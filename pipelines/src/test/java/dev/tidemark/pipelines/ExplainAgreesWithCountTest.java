package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.pipelines.explain.WarningText;
import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayTimeline.Pane;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code explain} predicts; {@code count} does. Over the same recordings, with the same options,
 * every pane {@code count} writes (key, window, timing, index, finality, count), every late record
 * and every dead letter is one {@code explain} lists, and nothing more: S1's sample, S1 with
 * wrong-clock records, and a long replay with late data within and beyond the allowed lateness.
 */
class ExplainAgreesWithCountTest {

  @TempDir Path directory;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void s1(String runner) throws Exception {
    Path input = write("s1.csv", sample("count.csv"));
    ReplayTimeline timeline = agree(runner, "--source=file:" + input);
    assertThat(timeline.late().size(), equalTo(1));
    assertThat(timeline.deadLetters().size(), equalTo(2));
  }

  @Test
  void s1WithRecordsFromAWrongClock() throws Exception {
    List<String> lines = new ArrayList<>(sample("count.csv"));
    lines.add(5, "01,4102444800000");
    lines.add(9, "02," + Long.MAX_VALUE);
    Path input = write("s1-wrong-clock.csv", lines);
    ReplayTimeline timeline = agree("DirectRunner", "--source=file:" + input);
    assertThat(timeline.deadLetters().size(), equalTo(4));
    assertThat(
        WarningText.of(timeline),
        hasItem(startsWith("records too far ahead of the clock, sent to the dead letters: 1 (")));
  }

  @Test
  void aLongReplayWithLateData() throws Exception {
    Path input = write("long.csv", generated(5000, 3, 0.02, 31));
    ReplayTimeline timeline =
        agree(
            "DirectRunner",
            "--source=file:" + input,
            "--windowSize=1000ms",
            "--maxOutOfOrderness=1000ms",
            "--allowedLateness=500ms");
    assertThat(timeline.late().size(), greaterThan(20));
    assertThat(
        "panes late within the lateness",
        timeline.panes().stream().filter(pane -> pane.index() > 0).count(),
        greaterThan(20L));
  }

  /**
   * Sliding and cumulating windows, each record judged window by window: a record that missed its
   * older windows is counted in its newer ones and is one late line, naming the latest it missed.
   * Sessions, as the replay's session step makes, merges and closes them: records late within the
   * lateness join and merge closed sessions.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {"--windowSize=2s --windowSlide=500ms", "--windowSize=2s --windowStep=500ms"})
  void slidingAndCumulatingWindowsWithLateData(String windows) throws Exception {
    Path input = write("overlapping" + windows.length() + ".csv", generated(3000, 3, 0.02, 37));
    String[] windowOptions = windows.split(" ");
    ReplayTimeline timeline =
        agree(
            "DirectRunner",
            "--source=file:" + input,
            windowOptions[0],
            windowOptions[1],
            "--maxOutOfOrderness=1000ms",
            "--allowedLateness=500ms");
    assertThat(timeline.late().size(), greaterThan(20));
    assertThat(
        "panes late within the lateness",
        timeline.panes().stream().filter(pane -> pane.index() > 0).count(),
        greaterThan(20L));
  }

  /**
   * Sessions, as the replay's session step makes them: records late within the lateness join closed
   * sessions and merge them, and the text says which.
   */
  @Test
  void sessionsMergeAndCloseAsCountMakesThem() throws Exception {
    Path input = write("sessions.csv", generated(3000, 40, 0.03, 41));
    ReplayTimeline timeline =
        agree(
            "DirectRunner",
            "--source=file:" + input,
            "--sessionGap=300ms",
            "--maxOutOfOrderness=1000ms",
            "--allowedLateness=1s");
    assertThat(timeline.late().size(), greaterThan(10));
    assertThat("sessions merged by a record", timeline.merges().size(), greaterThan(5));
    assertThat(
        "panes late within the lateness",
        timeline.panes().stream().filter(pane -> pane.index() > 0).count(),
        greaterThan(5L));
  }

  @Test
  void s4WithEveryRecordOnOnePartition() throws Exception {
    // S4: the test sent every record to partition 7 of a 10-partition topic.
    List<String> lines = new ArrayList<>();
    long base = 1_637_800_000_000L;
    for (int i = 0; i < 60; i++) {
      long t = base + i * 250L - (i % 4 == 3 ? 700 : 0);
      lines.add("{\"k\":\"" + (i % 2 == 0 ? "a" : "b") + "\",\"t\":" + t + ",\"partition\":7}");
    }
    lines.add("{\"k\":\"a\",\"t\":" + base + ",\"partition\":7}");
    Path input = write("s4.json", lines);
    String[] options = {
      "--source=file:" + input,
      "--format=json",
      "--keyField=k",
      "--timeField=t",
      "--partitionField=partition",
      "--maxOutOfOrderness=1s"
    };
    ReplayTimeline timeline = agree("DirectRunner", options);
    // (1) Every window fires, and the one record from the first window after it closed is late.
    assertThat(timeline.windows().size(), equalTo(3));
    assertThat(timeline.late().size(), equalTo(1));
    // (2) explain says the other partitions never had data, and what a reader without one means.
    assertThat(
        WarningText.of(timeline),
        hasItem(startsWith("partitions that never receive data: 0, 1, 2, 3, 4, 5, 6 (")));
    List<String> explain = new ArrayList<>(List.of("explain", "--parallelism=10"));
    explain.addAll(List.of(options));
    CommandLine printed = CommandLine.run(explain.toArray(String[]::new));
    assertThat(printed.err, printed.exitCode, equalTo(0));
    assertThat(
        printed.out,
        containsString("! --parallelism=10 is more than the 8 partitions the recording shows: 2"));
    assertThat(printed.out, containsString("  partition 7: 61 records"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void aPartitionThatLagsHoldsTheWatermarkBack(String runner) throws Exception {
    // Partition 1's records are 2.5 s behind partition 0's, read in turn (partition 1 first):
    // live, each partition has its own watermark, so they are on time; read as one stream, late.
    List<String> lines = new ArrayList<>();
    long base = 1_637_800_000_000L;
    for (int i = 0; i < 100; i++) {
      long t = base + i * 200L;
      lines.add("{\"k\":\"b\",\"t\":" + (t - 2500) + ",\"p\":1}");
      lines.add("{\"k\":\"a\",\"t\":" + t + ",\"p\":0}");
    }
    Path input = write("lagging.json", lines);
    String[] asOneStream = {
      "--source=file:" + input,
      "--format=json",
      "--keyField=k",
      "--timeField=t",
      "--windowSize=1s",
      "--maxOutOfOrderness=1s",
      "--idleTimeout=10s"
    };
    List<String> partitioned = new ArrayList<>(List.of(asOneStream));
    partitioned.add("--partitionField=p");
    ReplayTimeline timeline = agree(runner, partitioned.toArray(String[]::new));
    assertThat(timeline.late().size(), equalTo(0));
    assertThat(timeline.heldBack().size(), equalTo(1));
    assertThat(timeline.heldBack().get(0).partition(), equalTo("1"));
    assertThat(
        "as one stream, partition 1's records are late",
        ExplainRecording.timeline(
                PipelineOptionsFactory.fromArgs(asOneStream).as(ExplainRecording.Options.class))
            .late()
            .size(),
        greaterThan(90));
  }

  @Test
  void countAndMetricsWriteTheReportOfWhatTheyDo() throws Exception {
    Path countReport = directory.resolve("count.html");
    Outputs.Run count =
        Outputs.run(
            directory, "count", "count", "--runner=DirectRunner", "--report=" + countReport);
    assertThat(
        count.summary(), equalTo("tidemark: 21 records in, 6 results out, 1 late, 2 dead letters"));
    assertThat(
        Files.readString(countReport),
        containsString(
            "21 lines, windows of 5s, allowed lateness 0s: 4 windows, 6 panes, 1 late,"
                + " 2 dead letters."));
    Path metricsReport = directory.resolve("metrics.html");
    Outputs.Run metrics =
        Outputs.run(
            directory, "metrics", "metrics", "--runner=DirectRunner", "--report=" + metricsReport);
    String html = Files.readString(metricsReport);
    assertThat(html, containsString("windows of 1s"));
    assertThat(
        html,
        containsString(
            ", "
                + metrics.results().size()
                + " panes, "
                + metrics.late().size()
                + " late, "
                + metrics.dead().size()
                + " dead letters."));
  }

  /**
   * Runs {@code count} on {@code runner} and {@code explain} with {@code options}, and checks that
   * they agree pane by pane, late record by late record, dead letter by dead letter.
   */
  private ReplayTimeline agree(String runner, String... options) throws IOException {
    ReplayTimeline timeline =
        ExplainRecording.timeline(
            PipelineOptionsFactory.fromArgs(options).as(ExplainRecording.Options.class));
    List<String> countArgs = new ArrayList<>(List.of("count", "--runner=" + runner));
    countArgs.addAll(List.of(options));
    Outputs.Run run = Outputs.run(directory, "count-" + runner, countArgs.toArray(String[]::new));

    assertThat(
        described(run.results().stream().map(ExplainAgreesWithCountTest::describe)),
        equalTo(described(timeline.panes().stream().map(ExplainAgreesWithCountTest::describe))));
    // The same lateness, in the run's words (lateByMillis) and explain's ("late by N ms").
    assertThat(
        described(
            run.late().stream()
                .map(
                    late ->
                        late.get("record").asText()
                            + " late by "
                            + late.get("lateByMillis").asLong()
                            + "ms")),
        equalTo(
            described(
                timeline.late().stream()
                    .map(late -> late.raw() + " late by " + late.lateBy().getMillis() + "ms"))));
    assertThat(
        deadLetters(run.dead()),
        equalTo(
            described(
                timeline.deadLetters().stream()
                    .map(dead -> dead.raw() + " -> " + withoutNumbers(dead.reason())))));
    return timeline;
  }

  private static String describe(JsonNode result) {
    return result.get("key").asText()
        + " ["
        + result.get("windowStart").asLong()
        + ", "
        + result.get("windowEnd").asLong()
        + ") "
        + result.get("timing").asText()
        + "#"
        + result.get("pane").asLong()
        + (result.get("final").asBoolean() ? " final " : " ")
        + result.get("count").asLong();
  }

  private static String describe(Pane pane) {
    return pane.key()
        + " ["
        + pane.windowStart().getMillis()
        + ", "
        + pane.windowEnd().getMillis()
        + ") "
        + pane.timing()
        + "#"
        + pane.index()
        + (pane.isFinal() ? " final " : " ")
        + pane.count();
  }

  private static Set<String> deadLetters(List<JsonNode> dead) {
    return described(
        dead.stream()
            .map(
                line ->
                    line.get("record").asText()
                        + " -> "
                        + withoutNumbers(line.get("reason").asText())));
  }

  /** A reason with the clock's readings left out: they differ by the moment it was given. */
  private static String withoutNumbers(String reason) {
    return reason.contains("clock") ? reason.replaceAll("\\(.*\\)", "(...)") : reason;
  }

  private static Set<String> described(Stream<String> descriptions) {
    return descriptions.collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * {@code records} lines of {@code keys} keys, 1.5 s out of order, {@code lateFraction} of them
   * late and 1 % malformed.
   */
  private static List<String> generated(int records, int keys, double lateFraction, long seed) {
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(records)
        .withKeys(keys)
        .withOutOfOrderness(Duration.millis(1500))
        .withLateFraction(lateFraction)
        .withBadFraction(0.01)
        .withSeed(seed)
        .open()
        .forEachRemaining(lines::add);
    return lines;
  }

  private Path write(String name, List<String> lines) throws IOException {
    Path file = directory.resolve(name);
    Files.write(file, lines);
    return file;
  }

  private static List<String> sample(String name) throws IOException {
    try (InputStream in =
        ExplainAgreesWithCountTest.class.getResourceAsStream("/samples/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }
}
