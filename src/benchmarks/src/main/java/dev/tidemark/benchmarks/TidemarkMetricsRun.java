package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.pipelines.cli.Tidemark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * tidemark's {@code metrics} pipeline with a query's windows, or {@code sql} with its text ({@link
 * Query}), exactly as a user runs it from the command line: the file replayed under the replay's
 * rules, late capture, dead letters, idle handling, written as JSON lines. The run counts what its
 * final rows add up to.
 */
final class TidemarkMetricsRun {

  private static final ObjectMapper JSON = new ObjectMapper();

  private TidemarkMetricsRun() {}

  static Result run(String pipeline, Path input, long lines, int parallelism, Query query)
      throws Exception {
    Path rows = Files.createTempFile("tidemark-benchmark-rows", ".json");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      long start = System.nanoTime();
      int exitCode =
          Tidemark.run(
              arguments(pipeline, input, "file:" + rows, parallelism, query).toArray(String[]::new),
              System.out,
              new PrintStream(err, true, StandardCharsets.UTF_8));
      long millis = (System.nanoTime() - start) / 1_000_000;
      if (exitCode != 0) {
        throw new IllegalStateException(
            pipeline + " exited " + exitCode + ": " + err.toString(StandardCharsets.UTF_8));
      }
      return Result.now(lines, millis, query.records(finalCounts(Files.readAllLines(rows))));
    } finally {
      Files.deleteIfExists(rows);
    }
  }

  /**
   * The command line of {@code pipeline} for {@code query}, its results to {@code sink}: sql's with
   * its text.
   */
  static List<String> arguments(
      String pipeline, Path input, String sink, int parallelism, Query query) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                pipeline,
                "--source=file:" + input,
                "--sink=" + sink,
                "--parallelism=" + parallelism));
    if (pipeline.equals("sql")) {
      arguments.add("--query=" + query.text());
    } else {
      arguments.addAll(query.metricsWindows());
    }
    return arguments;
  }

  private static long finalCounts(List<String> rows) throws Exception {
    long counted = 0;
    for (String row : rows) {
      JsonNode node = JSON.readTree(row);
      if (node.get("final").asBoolean()) {
        counted += node.get("count_result").asLong();
      }
    }
    return counted;
  }
}
