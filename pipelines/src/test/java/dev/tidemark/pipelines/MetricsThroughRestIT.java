package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * tidemark's metrics of a running job, read through Flink's REST API the way a user's dashboard
 * would: {@code count --webUi=PORT} serves the Web UI and the API on 127.0.0.1, and while a paced
 * replay runs (15 s), the recording's records read, watermark, newest event time and lag, and the
 * records counted in, rise as the job goes. A Kafka topic's partitions report their watermark and
 * activity there too, the empty one included.
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ExtendWith(SharedKafkaBroker.class)
@Order(SuiteOrder.LONG)
class MetricsThroughRestIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The recording's name, "generator (60000 records, seed 4)", as Flink's metrics spell it. */
  private static final String RECORDING = "generator_(60000_records__seed_4)";

  @TempDir Path directory;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aRunningJobsMetricsAreInFlinksRestApi() throws Exception {
    WebUiRun count =
        startCountWithWebUi("--source=generator:records=60000,keys=3,rate=4000,seed=4");
    Process run = count.process();
    try {
      String api = count.api();
      assertThat("the Web UI", get(api + "/").toString(), containsString("Apache Flink"));
      Map<String, Double> first = tidemarkMetrics(api);
      // Beam hands the metrics to Flink every few seconds, and Flink's API caches them for one.
      Map<String, Double> later = first;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (System.nanoTime() < deadline
          && !(rose(first, later, "recordsRead[" + RECORDING + "]")
              && rose(first, later, "recordsIn"))) {
        Thread.sleep(500);
        later = tidemarkMetrics(api);
      }

      for (String gauge : new String[] {"recordsRead", "watermark", "newestEventTime"}) {
        String name = gauge + "[" + RECORDING + "]";
        assertThat(later.toString(), later.get(name), greaterThan(first.get(name)));
      }
      assertThat(later.get("activity[" + RECORDING + "]"), equalTo(0.0));
      assertThat(later.get("lag[" + RECORDING + "]"), greaterThan(0.0));
      assertThat(later.get("recordsIn"), greaterThan(first.get("recordsIn")));
    } finally {
      assertThat("ends within 2 min", run.waitFor(2, TimeUnit.MINUTES), equalTo(true));
    }
    assertThat(Files.readString(directory.resolve("run.log")), run.exitValue(), equalTo(0));
  }

  /**
   * Each partition's gauges reach Flink, even a partition that never had a record, on a subtask
   * that never read one: the case they are for ("why does my window not fire?").
   */
  @Test
  void eachKafkaPartitionsWatermarkAndActivityAreInFlinksRestApiTheEmptyOneToo(KafkaBroker broker)
      throws Exception {
    broker.createTopic("gauges", 2);
    List<String> records = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      records.add("a," + (1586489565000L + i * 1000L));
    }
    broker.send("gauges", 1, records);
    WebUiRun count =
        startCountWithWebUi(
            "--source=kafka://" + broker.bootstrapServers() + "/gauges",
            "--startFrom=earliest",
            "--parallelism=2",
            "--idleTimeout=3s");
    Process run = count.process();
    try {
      String api = count.api();
      String empty = "activity[gauges-0]";
      String quiet = "activity[gauges-1]";
      Map<String, Double> metrics = tidemarkMetrics(api, empty);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      // Partition 1 is active while its records are read, then quiet for 3 s: idle. The empty
      // partition's watermark follows the clock from the next time its reader asks for it.
      while (System.nanoTime() < deadline
          && !(Double.valueOf(2.0).equals(metrics.get(empty))
              && Double.valueOf(1.0).equals(metrics.get(quiet))
              && followsTheClock(metrics.get("watermark[gauges-0]")))) {
        Thread.sleep(500);
        metrics = tidemarkMetrics(api, empty);
      }

      assertThat(metrics.toString(), metrics.get(empty), equalTo(2.0));
      assertThat(metrics.toString(), metrics.get(quiet), equalTo(1.0));
      // The records' partition holds its newest event time minus the default bound; the empty
      // one follows the wall clock.
      assertThat(metrics.get("watermark[gauges-1]"), greaterThan(1586489565000.0));
      assertThat(
          metrics.toString(), followsTheClock(metrics.get("watermark[gauges-0]")), equalTo(true));
    } finally {
      run.destroy();
      assertThat("stops on a signal", run.waitFor(1, TimeUnit.MINUTES), equalTo(true));
    }
  }

  /** Whether {@code watermark} is within an hour of the wall clock. */
  private static boolean followsTheClock(Double watermark) {
    return watermark != null && watermark > System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1);
  }

  /** A run of {@code count} serving its Web UI and REST API, and the API's address. */
  private record WebUiRun(Process process, String api) {}

  /**
   * Starts {@code count} with {@code options}, its Web UI on a free port, its results in a file.
   */
  private WebUiRun startCountWithWebUi(String... options) throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    List<String> args = new ArrayList<>(List.of("count"));
    args.addAll(List.of(options));
    args.add("--webUi=" + port);
    args.add("--sink=file:" + directory.resolve("results.json"));
    Process process =
        TidemarkJar.run(args.toArray(String[]::new))
            .redirectOutput(directory.resolve("run.log").toFile())
            .start();
    return new WebUiRun(process, "http://127.0.0.1:" + port);
  }

  private static boolean rose(Map<String, Double> before, Map<String, Double> after, String name) {
    return after.getOrDefault(name, 0.0) > before.getOrDefault(name, 0.0);
  }

  /**
   * tidemark's metrics of the running job, by name, from every vertex of it; waits for the job to
   * run and report them.
   */
  private Map<String, Double> tidemarkMetrics(String api) throws Exception {
    return tidemarkMetrics(api, "recordsRead[" + RECORDING + "]");
  }

  /**
   * tidemark's metrics of the running job, by name, from every vertex of it; waits for the job to
   * run and report {@code awaited} and {@code recordsIn}.
   */
  private Map<String, Double> tidemarkMetrics(String api, String awaited) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      Map<String, Double> metrics = new HashMap<>();
      JsonNode jobs = get(api + "/jobs");
      for (JsonNode job : jobs.path("jobs")) {
        String jobUrl = api + "/jobs/" + job.get("id").asText();
        for (JsonNode vertex : get(jobUrl).path("vertices")) {
          String vertexUrl = jobUrl + "/vertices/" + vertex.get("id").asText() + "/metrics";
          for (JsonNode available : get(vertexUrl)) {
            String id = available.get("id").asText();
            int at = id.indexOf(".tidemark_");
            if (at >= 0) {
              JsonNode value =
                  get(vertexUrl + "?get=" + URLEncoder.encode(id, StandardCharsets.UTF_8));
              metrics.merge(
                  id.substring(at + ".tidemark_".length()),
                  value.get(0).get("value").asDouble(),
                  Double::sum);
            }
          }
        }
      }
      if (metrics.containsKey(awaited) && metrics.containsKey("recordsIn")
          || System.nanoTime() > deadline) {
        return metrics;
      }
      Thread.sleep(300);
    }
  }

  private JsonNode get(String url) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        // Flink answers 503 while its REST endpoint elects its leader, as it starts: not yet.
        if (response.statusCode() == 503 && System.nanoTime() < deadline) {
          Thread.sleep(300);
          continue;
        }
        if (response.body().trim().startsWith("<")) {
          return JSON.getNodeFactory().textNode(response.body());
        }
        return JSON.readTree(response.body());
      } catch (java.net.ConnectException notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        Thread.sleep(300);
      }
    }
  }
}
