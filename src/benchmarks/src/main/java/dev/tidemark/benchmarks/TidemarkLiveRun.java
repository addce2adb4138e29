package dev.tidemark.benchmarks;

import dev.tidemark.pipelines.cli.Tidemark;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * tidemark's {@code metrics}, or {@code sql} with S5's query (its default), on the live topic,
 * exactly as a user runs it from the command line: every partition from the earliest offset, the
 * idle-aware watermark with an idle timeout of 3 s, late capture, dead letters, every pane written
 * as a JSON line to a file. Timed until the final panes of the complete windows count every record
 * in them ({@link FinalRows}).
 */
final class TidemarkLiveRun {

  private TidemarkLiveRun() {}

  static Result run(String pipeline, S5Topic topic, int parallelism) throws Exception {
    Path rows = Files.createTempFile("tidemark-benchmark-live-rows", ".json");
    try {
      long start = System.nanoTime();
      Thread job =
          new Thread(
              () ->
                  Tidemark.run(
                      new String[] {
                        pipeline,
                        "--source=kafka://" + topic.bootstrapServers() + "/" + topic.topic(),
                        "--startFrom=earliest",
                        "--idleTimeout=3s",
                        "--sink=file:" + rows,
                        "--parallelism=" + parallelism
                      },
                      new PrintStream(PrintStream.nullOutputStream()),
                      new PrintStream(PrintStream.nullOutputStream())),
              "tidemark-live-run");
      job.setDaemon(true);
      job.start();
      FinalRows finalRows = new FinalRows(rows, topic);
      long counted = UntilExact.await(finalRows::counted, topic.inCompleteWindows(), job::isAlive);
      return Result.now(
          topic.inCompleteWindows(), (System.nanoTime() - start) / 1_000_000, counted);
    } finally {
      Files.deleteIfExists(rows);
    }
  }
}
