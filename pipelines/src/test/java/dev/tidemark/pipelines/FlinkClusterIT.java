package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The shaded jar, submitted from its own command line to a real standalone Flink cluster with
 * {@code --flinkMaster=HOST:PORT}, runs {@code count} on the TaskManager and gives the same results
 * as the other runners.
 */
@ResourceLock(SharedFlinkCluster.LOCK)
@ExtendWith(SharedFlinkCluster.class)
class FlinkClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;

  @Test
  void shadedJarRunsCountOnAStandaloneCluster(FlinkCluster cluster) throws Exception {
    List<String> lines = recording(1000, 3);
    Path input = directory.resolve("clicks.csv");
    Files.write(input, lines);

    Process submit = submitCount(cluster, "--source=file:" + input);
    try {
      assertEndsWell(submit);
      assertThat(cluster.latestJobState(), equalTo("FINISHED"));
    } finally {
      submit.destroyForcibly();
    }

    CsvReplayPrediction predicted = CsvReplayPrediction.of(lines, 1000, 1000, 500);
    assertThat(Outputs.finalCounts(Outputs.read(out())), equalTo(predicted.finalCounts));
    assertThat(Outputs.records(Outputs.read(late()), "late"), equalTo(predicted.late));
    assertThat(Outputs.records(Outputs.read(dead()), "deadLetter"), equalTo(predicted.dead));
  }

  @Test
  void countSurvivesTheLossOfItsTaskManagers(FlinkCluster cluster) throws Exception {
    List<String> lines = recording(3000, 5);

    Process submit =
        submitCount(
            cluster,
            "--source=generator:records=3000,keys=3,outOfOrderness=1500ms,late=0.02,bad=0.01,"
                + "seed=5,rate=150",
            "--checkpointingInterval=500",
            "--numberOfExecutionRetries=10",
            "--executionRetryDelay=2000");
    try {
      // (1) Once results flow, every TaskManager the job runs on dies; new ones come up.
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (Outputs.read(out()).size() < 20 && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(Files.readString(log()), Outputs.read(out()).size() >= 20, equalTo(true));
      cluster.killTheLatestJobsTaskManagers();
      // (2) The job restores from its last checkpoint and finishes.
      assertEndsWell(submit);
      JsonNode checkpoints = JSON.readTree(cluster.checkpoints());
      assertThat(
          "the job was restored from a checkpoint: " + checkpoints,
          checkpoints.path("latest").path("restored").has("id"),
          equalTo(true));
    } finally {
      submit.destroyForcibly();
    }

    // (3) Output written before the failure may repeat; what counts is unchanged: the latest final
    // pane of every window, the late records and the dead letters are the predicted ones.
    CsvReplayPrediction predicted = CsvReplayPrediction.of(lines, 1000, 1000, 500);
    assertThat(Outputs.latestFinalCounts(Outputs.read(out())), equalTo(predicted.finalCounts));
    assertThat(Outputs.distinctRecords(Outputs.read(late())), equalTo(predicted.late));
    assertThat(Outputs.distinctRecords(Outputs.read(dead())), equalTo(predicted.dead));
  }

  /** The lines of the generator with 3 keys, 1.5 s out of order, 2 % late and 1 % malformed. */
  private static List<String> recording(long records, long seed) {
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(records)
        .withKeys(3)
        .withOutOfOrderness(Duration.millis(1500))
        .withLateFraction(0.02)
        .withBadFraction(0.01)
        .withSeed(seed)
        .open()
        .forEachRemaining(lines::add);
    return lines;
  }

  /** {@code java -jar target/tidemark.jar count} on {@code cluster}, 1 s windows, into files. */
  private Process submitCount(FlinkCluster cluster, String... options) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "count",
                "--windowSize=1s",
                "--allowedLateness=500ms",
                "--sink=file:" + out(),
                "--lateSink=file:" + late(),
                "--deadLetterSink=file:" + dead(),
                "--flinkMaster=" + cluster.master(),
                "--parallelism=2"));
    args.addAll(List.of(options));
    return TidemarkJar.run(args.toArray(String[]::new)).redirectOutput(log().toFile()).start();
  }

  private void assertEndsWell(Process submit) throws Exception {
    boolean ended = submit.waitFor(5, TimeUnit.MINUTES);
    assertThat(Files.readString(log()), ended && submit.exitValue() == 0, equalTo(true));
  }

  private Path out() {
    return directory.resolve("results.json");
  }

  private Path late() {
    return directory.resolve("late.json");
  }

  private Path dead() {
    return directory.resolve("dead.json");
  }

  private Path log() {
    return directory.resolve("submit.log");
  }
}
