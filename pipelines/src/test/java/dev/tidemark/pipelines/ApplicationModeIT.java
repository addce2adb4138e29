package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Application mode, as the Flink Kubernetes Operator runs a job: the JobManager itself runs the job
 * jar's main, which submits {@code metrics} to the cluster it runs in; its rows reach Kafka. The
 * cluster is the test's own, so it runs beside the tests of the shared one.
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ExtendWith(SharedKafkaBroker.class)
@Order(SuiteOrder.LONG)
class ApplicationModeIT {

  /** The job jar, without the Flink runtime the cluster has: what the operator's image holds. */
  private static final Path JAR = Path.of("target", "tidemark-job.jar").toAbsolutePath();

  @TempDir Path directory;

  @Test
  void anApplicationClusterRunsMetricsFromTheJobJarsMain(KafkaBroker broker) throws Exception {
    String topic = "launched-as-application";
    Map<String, Long> expected = LaunchedMetrics.fill(broker, topic);
    try (ApplicationCluster cluster =
        ApplicationCluster.start(JAR, LaunchedMetrics.arguments(broker, topic, directory))) {
      assertThat(
          cluster.awaitRunningJob().path("name").asText(), equalTo("tidemark-metrics-kafka"));
      assertThat(LaunchedMetrics.rows(broker, topic, expected), equalTo(expected));
    }
  }
}
