package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Reads back the JSON lines a run wrote to a file sink. */
final class Outputs {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Outputs() {}

  static List<JsonNode> read(Path file) throws IOException {
    List<JsonNode> nodes = new ArrayList<>();
    if (!Files.exists(file)) {
      return nodes;
    }
    for (String line : Files.readAllLines(file)) {
      nodes.add(JSON.readTree(line));
    }
    return nodes;
  }

  /** "key,windowStart" -> count, of the final panes; fails on a second final pane. */
  static Map<String, Long> finalCounts(List<JsonNode> results) {
    Map<String, Long> counts = new TreeMap<>();
    for (JsonNode result : results) {
      if (result.get("final").asBoolean()) {
        Long previous =
            counts.put(
                result.get("key").asText() + "," + result.get("windowStart").asLong(),
                result.get("count").asLong());
        assertThat("one final pane per key and window", previous, equalTo(null));
      }
    }
    return counts;
  }

  static Set<String> records(List<JsonNode> lines, String type) {
    Set<String> records = new HashSet<>();
    for (JsonNode line : lines) {
      assertThat(line.get("type").asText(), equalTo(type));
      records.add(line.get("record").asText());
    }
    assertThat("no record twice", records.size(), equalTo(lines.size()));
    return records;
  }

  /**
   * Runs {@code args} from the command line with every sink a file under {@code directory} named
   * after {@code name}, and checks it exits 0.
   */
  static Run run(Path directory, String name, String... args) throws IOException {
    Path results = directory.resolve(name + "-results.json");
    Path late = directory.resolve(name + "-late.json");
    Path dead = directory.resolve(name + "-dead.json");
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--sink=file:" + results);
    all.add("--lateSink=file:" + late);
    all.add("--deadLetterSink=file:" + dead);
    CommandLine run = CommandLine.run(all.toArray(new String[0]));
    assertThat(run.err, run.exitCode, equalTo(0));
    return new Run(read(results), read(late), read(dead), run.err);
  }

  /** What one command-line run wrote: results, late records, dead letters, and its stderr. */
  record Run(List<JsonNode> results, List<JsonNode> late, List<JsonNode> dead, String err) {

    /** The records of the late ({@code "late"}) or dead-letter ({@code "deadLetter"}) lines. */
    Set<String> records(String type) {
      return Outputs.records(type.equals("late") ? late : dead, type);
    }

    /** The last line on stderr: the run's summary. */
    String summary() {
      return err.lines().reduce((first, second) -> second).orElse("");
    }
  }
}
