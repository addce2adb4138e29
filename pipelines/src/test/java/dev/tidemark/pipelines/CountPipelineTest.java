package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code count} from its command line on small files that tell one story each: S2's sums, a record
 * late within the allowed lateness, and records from a wrong clock among S1's. Long replays are in
 * {@link ReplayPipelinesTest}.
 */
class CountPipelineTest {

  @TempDir static Path directory;

  static Stream<Arguments> runners() {
    return Stream.of(Arguments.of("DirectRunner", 2), Arguments.of("FlinkRunner", 2));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void orderLateWithinTheLatenessGivesALatePaneAsInS2(String runner, int parallelism)
      throws Exception {
    // (1) alice at ...566000 and ...567000, then a record at ...574000 closes [565000, 570000)
    // under a 3 s bound; (2) alice at ...568000 arrives after that: late, but within 1 min.
    List<String> alice = s2WithALateOrder(runner, parallelism, "all");
    // (3) The ON_TIME pane holds what came before the window closed; the late order adds a LATE
    // pane, the final one.
    assertThat(alice, contains("LATE#1 final=true 3/8", "ON_TIME#0 final=false 2/3"));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void emitFinalWritesOneRowPerWindowWithTheLateOrderInIt(String runner, int parallelism)
      throws Exception {
    // (1) The same records, with --emit=final: one row for alice's window, when it expires.
    List<String> alice = s2WithALateOrder(runner, parallelism, "final");
    assertThat(alice, contains("ON_TIME#0 final=true 3/8"));
  }

  /** S2's orders with one late within the lateness, counted; alice's panes, sorted. */
  private static List<String> s2WithALateOrder(String runner, int parallelism, String emit)
      throws Exception {
    String name = "s2-late-" + emit + "-" + runner;
    Path input = directory.resolve(name + ".json");
    Files.write(
        input,
        List.of(
            "{\"id\":1,\"name\":\"alice\",\"amount\":1586489566000}",
            "{\"id\":2,\"name\":\"alice\",\"amount\":1586489567000}",
            "{\"id\":3,\"name\":\"bob\",\"amount\":1586489574000}",
            "{\"id\":5,\"name\":\"alice\",\"amount\":1586489568000}"));
    Outputs.Run run =
        Outputs.run(
            directory,
            name,
            "count",
            "--source=file:" + input,
            "--format=json",
            "--keyField=name",
            "--timeField=amount",
            "--sumField=id",
            "--maxOutOfOrderness=3s",
            "--allowedLateness=1m",
            "--emit=" + emit,
            "--runner=" + runner,
            "--parallelism=" + parallelism);

    List<String> alice = new ArrayList<>();
    for (JsonNode result : run.results()) {
      if (result.get("key").asText().equals("alice")) {
        alice.add(
            result.get("timing").asText()
                + "#"
                + result.get("pane").asLong()
                + " final="
                + result.get("final").asBoolean()
                + " "
                + result.get("count").asLong()
                + "/"
                + result.get("sum").asLong());
      }
    }
    alice.sort(null);
    return alice;
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void recordsFromAWrongClockAreDeadLettersAndS1StaysExact(String runner, int parallelism)
      throws Exception {
    // S1's lines, with a record from the year 2100 and one at Long.MAX_VALUE among them.
    List<String> lines = new ArrayList<>();
    long[] times = {
      1586489566000L, 1586489567000L, 1586489568000L, 1586489569000L, 1586489570000L,
      1586489571000L, 1586489572000L, 1586489573000L, 1586489574000L, 1586489575000L,
      1586489576000L, 1586489577000L, 1586489578000L, 1586489579000L, 1586489589000L
    };
    for (int i = 0; i < times.length; i++) {
      lines.add("01," + times[i]);
      if (i == 3) {
        lines.add("01,4102444800000");
      }
      if (i == 8) {
        lines.add("01,9223372036854775807");
      }
    }
    Path input = directory.resolve("s1-skew-" + runner + ".csv");
    Files.write(input, lines);
    Outputs.Run run =
        Outputs.run(
            directory,
            "s1-skew-" + runner,
            "count",
            "--source=file:" + input,
            "--runner=" + runner,
            "--parallelism=" + parallelism);

    assertThat(
        Outputs.finalCounts(run.results()),
        equalTo(
            Map.of(
                "01,1586489565000", 4L,
                "01,1586489570000", 5L,
                "01,1586489575000", 5L,
                "01,1586489585000", 1L)));
    assertThat(run.late().size(), equalTo(0));
    List<String> reasons = new ArrayList<>();
    for (JsonNode dead : run.dead()) {
      reasons.add(dead.get("record").asText() + ": " + dead.get("reason").asText());
    }
    reasons.sort(null);
    assertThat(reasons.size(), equalTo(2));
    assertThat(
        reasons.get(0), startsWith("01,4102444800000: event time 4102444800000 is 73 years"));
    assertThat(reasons.get(0), endsWith("at most 15 min 0 s is accepted (--maxFutureSkew)"));
    assertThat(
        reasons.get(1),
        startsWith("01,9223372036854775807: field 'epochMillis': 9223372036854775807 is outside"));
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
