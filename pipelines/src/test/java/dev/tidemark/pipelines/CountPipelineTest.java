package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.transforms.io.GeneratedLines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code count} from its command line on files: the final panes, late records and dead letters
 * equal what a straightforward reading of the file in order predicts, and are the same on the
 * DirectRunner and on embedded Flink at parallelism 1, 2 and 4.
 */
class CountPipelineTest {

  private static final long WINDOW = 1000;
  private static final long OUT_OF_ORDERNESS = 1000;
  private static final long ALLOWED_LATENESS = 500;

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
  void csvReplayGivesThePredictedFinalResults(String runner, int parallelism) throws Exception {
    Path input = directory.resolve("clicks.csv");
    if (!Files.exists(input)) {
      List<String> lines = new ArrayList<>();
      GeneratedLines.records(2000)
          .withKeys(3)
          .withOutOfOrderness(Duration.millis(1500))
          .withLateFraction(0.02)
          .withBadFraction(0.01)
          .withSeed(11)
          .open()
          .forEachRemaining(lines::add);
      Files.write(input, lines);
    }
    Path out = directory.resolve("results-" + runner + parallelism + ".json");
    Path late = directory.resolve("late-" + runner + parallelism + ".json");
    Path dead = directory.resolve("dead-" + runner + parallelism + ".json");

    CommandLine run =
        CommandLine.run(
            "count",
            "--source=file:" + input,
            "--windowSize=" + WINDOW + "ms",
            "--maxOutOfOrderness=" + OUT_OF_ORDERNESS + "ms",
            "--allowedLateness=" + ALLOWED_LATENESS + "ms",
            "--sink=file:" + out,
            "--lateSink=file:" + late,
            "--deadLetterSink=file:" + dead,
            "--runner=" + runner,
            "--parallelism=" + parallelism);

    assertThat(run.err, run.exitCode, equalTo(0));
    CsvReplayPrediction predicted =
        CsvReplayPrediction.of(
            Files.readAllLines(input), WINDOW, OUT_OF_ORDERNESS, ALLOWED_LATENESS);
    assertThat(predicted.late.size(), greaterThan(20));
    assertThat(Outputs.finalCounts(Outputs.read(out)), equalTo(predicted.finalCounts));
    assertThat(Outputs.records(Outputs.read(late), "late"), equalTo(predicted.late));
    assertThat(Outputs.records(Outputs.read(dead), "deadLetter"), equalTo(predicted.dead));
    assertThat(
        run.err.lines().reduce((first, second) -> second).orElse(""),
        equalTo(
            "tidemark: 2000 records in, "
                + Outputs.read(out).size()
                + " results out, "
                + predicted.late.size()
                + " late, "
                + predicted.dead.size()
                + " dead letters"));
  }

  @Test
  void jsonOrdersSumPerNameAsInS2() throws Exception {
    Path input = directory.resolve("orders.json");
    long base = 1637800000000L;
    Files.write(
        input,
        List.of(
            "{\"id\":1,\"name\":\"a\",\"amount\":" + base + "}",
            "{\"id\":2,\"name\":\"b\",\"amount\":" + (base + 1000) + "}",
            "{\"id\":3,\"name\":\"a\",\"amount\":" + (base + 2500) + "}",
            "{\"id\":4,\"name\":\"a\",\"amount\":" + (base + 6000) + "}",
            "{\"id\":5,\"name\":\"b\",\"amount\":" + (base + 7000) + "}",
            "{\"id\":6,\"name\":\"a\"}",
            "{\"id\":7,\"name\":\"a\",\"amount\":" + (base + 8000) + "}"));
    Path out = directory.resolve("sums.json");
    Path dead = directory.resolve("sums-dead.json");

    CommandLine run =
        CommandLine.run(
            "count",
            "--source=file:" + input,
            "--format=json",
            "--keyField=name",
            "--timeField=amount",
            "--sumField=id",
            "--maxOutOfOrderness=3s",
            "--allowedLateness=1m",
            "--sink=file:" + out,
            "--deadLetterSink=file:" + dead,
            "--runner=DirectRunner");

    assertThat(run.err, run.exitCode, equalTo(0));
    Map<String, String> sums = new TreeMap<>();
    for (JsonNode result : Outputs.read(out)) {
      if (result.get("final").asBoolean()) {
        sums.put(
            result.get("key").asText() + "@" + (result.get("windowStart").asLong() - base),
            result.get("count").asLong() + "/" + result.get("sum").asLong());
      }
    }
    assertThat(
        sums, equalTo(Map.of("a@0", "2/4", "b@0", "1/2", "a@5000", "2/11", "b@5000", "1/5")));
    assertThat(Outputs.read(dead).get(0).get("reason").asText(), equalTo("missing field 'amount'"));
  }
}
