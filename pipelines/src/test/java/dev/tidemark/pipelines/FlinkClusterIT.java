package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.io.GeneratedLines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar, submitted from its own command line to a real standalone Flink cluster with
 * {@code --flinkMaster=HOST:PORT}, runs {@code count} on the TaskManager and gives the same results
 * as the other runners.
 */
class FlinkClusterIT {

  @TempDir Path directory;

  @Test
  void shadedJarRunsCountOnAStandaloneCluster() throws Exception {
    Path input = directory.resolve("clicks.csv");
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(1000)
        .withOutOfOrderness(Duration.millis(1500))
        .withLateFraction(0.02)
        .withBadFraction(0.01)
        .withSeed(3)
        .open()
        .forEachRemaining(lines::add);
    Files.write(input, lines);
    Path out = directory.resolve("results.json");
    Path late = directory.resolve("late.json");
    Path dead = directory.resolve("dead.json");
    Path log = directory.resolve("submit.log");

    try (FlinkCluster cluster = FlinkCluster.start()) {
      Process submit =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-jar",
                  Path.of("target", "tidemark.jar").toAbsolutePath().toString(),
                  "count",
                  "--source=file:" + input,
                  "--windowSize=1s",
                  "--allowedLateness=500ms",
                  "--sink=file:" + out,
                  "--lateSink=file:" + late,
                  "--deadLetterSink=file:" + dead,
                  "--flinkMaster=" + cluster.master(),
                  "--parallelism=2")
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      boolean ended = submit.waitFor(5, TimeUnit.MINUTES);
      if (!ended) {
        submit.destroyForcibly();
      }
      String output = Files.readString(log);
      assertThat(output, ended && submit.exitValue() == 0, equalTo(true));
      assertThat(cluster.rest("/jobs/overview"), containsString("\"state\":\"FINISHED\""));
    }

    CsvReplayPrediction predicted = CsvReplayPrediction.of(lines, 1000, 1000, 500);
    assertThat(Outputs.finalCounts(Outputs.read(out)), equalTo(predicted.finalCounts));
    assertThat(Outputs.records(Outputs.read(late), "late"), equalTo(predicted.late));
    assertThat(Outputs.records(Outputs.read(dead), "deadLetter"), equalTo(predicted.dead));
  }
}
