package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.stack.FlinkCli;
import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The job jar run as Flink users run any job, by Flink's own launchers on a real session cluster:
 * uploaded and run through the REST API, as the Web UI's "Submit New Job" does, and submitted with
 * {@code flink run} (Flink's {@code CliFrontend}). The job goes through the launcher's environment,
 * under its default name, and its rows, read back from Kafka, are the ones its records give. A
 * mistake in the program arguments is one line in the REST API's answer, and the JobManager, whose
 * JVM ran tidemark's main, keeps running. {@code ApplicationModeIT} runs the third launcher.
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ResourceLock(SharedFlinkCluster.LOCK)
@Order(SharedFlinkCluster.ORDER)
@ExtendWith({SharedKafkaBroker.class, SharedFlinkCluster.class})
class FlinkLaunchersIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long BASE = 1_700_000_000_000L;

  /** The job jar, without the Flink runtime the cluster has: what users give Flink's launchers. */
  private static final Path JAR = Path.of("target", "tidemark-job.jar").toAbsolutePath();

  @TempDir Path directory;

  @Test
  void theWebUisJarUploadRunsMetricsAndCountAndRefusesAMistakeInOneLine(
      KafkaBroker broker, FlinkCluster cluster) throws Exception {
    String topic = "launched-by-rest";
    Map<String, Long> expectedMetrics = LaunchedMetrics.fill(broker, topic);
    Map<String, Long> expectedCounts = countRecords(broker, topic + "-count");
    String jar = FlinkRest.uploadJar(cluster.master(), JAR);

    // (1) A mistake: one line, naming the option, in the answer; the JobManager runs on.
    HttpResponse<String> refused =
        FlinkRest.runJar(
            cluster.master(), jar, List.of("metrics", "--detached", "--flinkMaster=x:1"));
    assertThat(refused.body(), refused.statusCode(), not(equalTo(200)));
    assertThat(
        refused.body(),
        containsString(
            "tidemark: --detached: metrics run by Flink's launcher is submitted without waiting"
                + " for it, whatever the launcher's mode; leave it out tidemark: --flinkMaster:"
                + " metrics run by Flink's launcher goes to the launcher's cluster; leave it out"));
    assertThat(cluster.rest("/overview"), containsString("\"taskmanagers\":2"));

    // (2) The runs, side by side: each job is the cluster's, under its default name, and writes
    // every window.
    HttpResponse<String> metrics =
        FlinkRest.runJar(
            cluster.master(), jar, LaunchedMetrics.arguments(broker, topic, directory));
    HttpResponse<String> count =
        FlinkRest.runJar(cluster.master(), jar, count(broker, topic + "-count"));
    assertThat(metrics.body(), metrics.statusCode(), equalTo(200));
    assertThat(count.body(), count.statusCode(), equalTo(200));
    assertThat(
        cluster.jobName(JSON.readTree(metrics.body()).path("jobid").asText()),
        equalTo("tidemark-metrics-kafka"));
    assertThat(
        cluster.jobName(JSON.readTree(count.body()).path("jobid").asText()),
        equalTo("tidemark-count-kafka"));
    assertThat(LaunchedMetrics.rows(broker, topic, expectedMetrics), equalTo(expectedMetrics));
    assertThat(countRows(broker, topic + "-count", expectedCounts), equalTo(expectedCounts));
  }

  @Test
  void flinkRunSubmitsCountAndMetricsThroughItsOwnEnvironment(
      KafkaBroker broker, FlinkCluster cluster) throws Exception {
    String topic = "launched-by-cli";
    Map<String, Long> expectedCounts = countRecords(broker, topic);
    Map<String, Long> expectedMetrics = LaunchedMetrics.fill(broker, topic + "-metrics");

    // Two flink run commands at once, as two users' CI jobs would.
    Process flinkRunCount = flinkRun(cluster, "count", count(broker, topic));
    Process flinkRunMetrics =
        flinkRun(
            cluster, "metrics", LaunchedMetrics.arguments(broker, topic + "-metrics", directory));
    try {
      assertSubmitted(flinkRunCount, "count", "tidemark-count-kafka");
      assertSubmitted(flinkRunMetrics, "metrics", "tidemark-metrics-kafka");
    } finally {
      flinkRunCount.destroyForcibly();
      flinkRunMetrics.destroyForcibly();
    }
    assertThat(countRows(broker, topic, expectedCounts), equalTo(expectedCounts));
    assertThat(
        LaunchedMetrics.rows(broker, topic + "-metrics", expectedMetrics),
        equalTo(expectedMetrics));
  }

  /**
   * Flink's {@code flink run} of the job jar with {@code arguments}, as {@code stack flink run}
   * starts it ({@link FlinkCli}), against the cluster's address in its configuration directory.
   */
  private Process flinkRun(FlinkCluster cluster, String name, List<String> arguments)
      throws Exception {
    List<String> command = new ArrayList<>(List.of("run", JAR.toString()));
    command.addAll(arguments);
    return FlinkCli.command(
            cluster.configurationDirectory(),
            directory.resolve(name + "-flink-cli.log"),
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
            command)
        .redirectErrorStream(true)
        .redirectOutput(directory.resolve(name + "-flink-run.log").toFile())
        .start();
  }

  /** {@code flinkRun} ended well, saying it submitted the job named {@code job}. */
  private void assertSubmitted(Process flinkRun, String name, String job) throws Exception {
    Path log = directory.resolve(name + "-flink-run.log");
    assertThat(
        log.toString(),
        flinkRun.waitFor(2, TimeUnit.MINUTES) && flinkRun.exitValue() == 0,
        equalTo(true));
    assertThat(
        Files.readString(log),
        containsString(
            "tidemark: submitted job "
                + job
                + " through Flink's launcher; Flink's Web UI and REST API show it"));
  }

  /**
   * Fills {@code topic} (one partition) with 100 records of three keys over 10 s and one a minute
   * later that closes their windows, and makes {@code <topic>-results}; returns each key and
   * window's count.
   */
  private static Map<String, Long> countRecords(KafkaBroker broker, String topic) throws Exception {
    broker.createTopic(topic, 1);
    broker.createTopic(topic + "-results", 1);
    List<String> lines = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 100; i++) {
      long time = BASE + i * 100L;
      String key = "k" + (i % 3);
      lines.add(key + "," + time);
      expected.merge(key + "," + (time - time % 1000), 1L, Long::sum);
    }
    lines.add("closer," + (BASE + 60_000));
    broker.send(topic, 0, lines);
    return expected;
  }

  /** The program arguments of {@code count} from {@code topic} to {@code <topic>-results}. */
  private List<String> count(KafkaBroker broker, String topic) {
    return List.of(
        "count",
        "--source=kafka://" + broker.bootstrapServers() + "/" + topic,
        "--sink=kafka://" + broker.bootstrapServers() + "/" + topic + "-results",
        "--lateSink=file:" + directory.resolve(topic + "-late.json"),
        "--deadLetterSink=file:" + directory.resolve(topic + "-dead.json"),
        "--windowSize=1s",
        "--emit=final");
  }

  /**
   * Each key and window's count in {@code <topic>-results}, once every window of {@code expected}
   * has a row, or what the topic holds after two minutes; the closing record's window left out.
   */
  private static Map<String, Long> countRows(
      KafkaBroker broker, String topic, Map<String, Long> expected) {
    Map<String, Long> counts = new TreeMap<>();
    TopicValues.read(
        broker.bootstrapServers(),
        topic + "-results",
        Duration.ofMinutes(2),
        value -> {
          JsonNode row = readJson(value);
          if (!row.path("key").asText().equals("closer")) {
            counts.put(
                row.path("key").asText() + "," + row.path("windowStart").asLong(),
                row.path("count").asLong());
          }
        },
        () -> counts.keySet().containsAll(expected.keySet()));
    return counts;
  }

  private static JsonNode readJson(String value) {
    try {
      return JSON.readTree(value);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
