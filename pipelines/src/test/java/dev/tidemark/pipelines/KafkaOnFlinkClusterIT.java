package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.LineShape;
import dev.tidemark.transforms.testing.KafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * S5 in production shape: {@code metrics} submitted from the shaded jar to a real Flink session
 * cluster (two TaskManagers), reading a real 2-partition topic at {@code --parallelism=4} (more
 * readers than partitions: two of them idle for good) and writing to a results topic. Every
 * window's latest pane, read back from the results topic, has the count the records give.
 */
class KafkaOnFlinkClusterIT {

  @TempDir Path directory;

  @Test
  void metricsOnTheClusterAtParallelism4CountsEveryWindow() throws Exception {
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(2000)
        .withKeys(3)
        .withStep(org.joda.time.Duration.millis(10))
        .withOutOfOrderness(org.joda.time.Duration.millis(1500))
        .withShape(LineShape.S5_STATS)
        .withSeed(9)
        .open()
        .forEachRemaining(lines::add);
    Map<String, Long> expected = MetricsRows.expected(lines);
    assertThat("several windows", expected.size(), greaterThan(20));

    try (KafkaBroker broker = KafkaBroker.start();
        FlinkCluster cluster = FlinkCluster.start(2)) {
      broker.createTopic("stats", 2);
      broker.createTopic("stats-per-second", 1);
      List<List<String>> partitions = List.of(new ArrayList<>(), new ArrayList<>());
      for (int i = 0; i < lines.size(); i++) {
        partitions.get(i % 2).add(lines.get(i));
      }
      broker.send("stats", 0, partitions.get(0));
      broker.send("stats", 1, partitions.get(1));
      Path log = directory.resolve("submit.log");
      Process submit =
          TidemarkJar.run(
                  "metrics",
                  "--source=kafka://" + broker.bootstrapServers() + "/stats",
                  "--sink=kafka://" + broker.bootstrapServers() + "/stats-per-second",
                  "--flinkMaster=" + cluster.master(),
                  "--parallelism=4",
                  "--idleTimeout=3s")
              .redirectOutput(log.toFile())
              .start();
      try {
        Map<String, Long> latest =
            MetricsRows.latest(
                broker.bootstrapServers(), "stats-per-second", expected, Duration.ofMinutes(3));
        assertThat(Files.readString(log), latest, equalTo(expected));
      } finally {
        cluster.cancelJobs();
        submit.destroyForcibly();
      }
    }
  }
}
