package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

  private static final ObjectMapper JSON = new ObjectMapper();

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

  @Test
  void countSurvivesTheLossOfItsTaskManager() throws Exception {
    String generator =
        "generator:records=3000,keys=3,outOfOrderness=1500ms,late=0.02,bad=0.01,seed=5";
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(3000)
        .withKeys(3)
        .withOutOfOrderness(Duration.millis(1500))
        .withLateFraction(0.02)
        .withBadFraction(0.01)
        .withSeed(5)
        .open()
        .forEachRemaining(lines::add);
    Path out = directory.resolve("results.json");
    Path late = directory.resolve("late.json");
    Path dead = directory.resolve("dead.json");
    Path log = directory.resolve("submit.log");

    try (FlinkCluster cluster = FlinkCluster.start(1)) {
      Process submit =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-jar",
                  Path.of("target", "tidemark.jar").toAbsolutePath().toString(),
                  "count",
                  "--source=" + generator + ",rate=150",
                  "--windowSize=1s",
                  "--allowedLateness=500ms",
                  "--sink=file:" + out,
                  "--lateSink=file:" + late,
                  "--deadLetterSink=file:" + dead,
                  "--flinkMaster=" + cluster.master(),
                  "--parallelism=2",
                  "--checkpointingInterval=500",
                  "--numberOfExecutionRetries=5",
                  "--executionRetryDelay=1000")
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      try {
        // (1) Once results flow, the only TaskManager dies; a new one comes up.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (Outputs.read(out).size() < 20 && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        assertThat(Files.readString(log), Outputs.read(out).size() >= 20, equalTo(true));
        cluster.killTaskManager(1);
        cluster.startTaskManager();
        // (2) The job restores from its last checkpoint and finishes.
        boolean ended = submit.waitFor(5, TimeUnit.MINUTES);
        assertThat(Files.readString(log), ended && submit.exitValue() == 0, equalTo(true));
        JsonNode job = JSON.readTree(cluster.rest("/jobs/overview")).get("jobs").get(0);
        JsonNode checkpoints =
            JSON.readTree(cluster.rest("/jobs/" + job.get("jid").asText() + "/checkpoints"));
        assertThat(
            "the job was restored from a checkpoint: " + checkpoints,
            checkpoints.path("latest").path("restored").has("id"),
            equalTo(true));
      } finally {
        submit.destroyForcibly();
      }
    }

    // (3) Output written before the failure may repeat; what counts is unchanged: the latest final
    // pane of every window, the late records and the dead letters are the predicted ones.
    CsvReplayPrediction predicted = CsvReplayPrediction.of(lines, 1000, 1000, 500);
    assertThat(Outputs.latestFinalCounts(Outputs.read(out)), equalTo(predicted.finalCounts));
    assertThat(Outputs.distinctRecords(Outputs.read(late)), equalTo(predicted.late));
    assertThat(Outputs.distinctRecords(Outputs.read(dead)), equalTo(predicted.dead));
  }
}
