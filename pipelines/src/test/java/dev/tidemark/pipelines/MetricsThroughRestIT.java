package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tidemark's metrics of a running job, read through Flink's REST API the way a user's dashboard
 * would: {@code count --webUi=PORT} serves the Web UI and the API on 127.0.0.1, and while a paced
 * replay runs (15 s), the recording's records read, watermark, newest event time and lag, and the
 * records counted in, rise as the job goes.
 */
class MetricsThroughRestIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The recording's name, "generator (60000 records, seed 4)", as Flink's metrics spell it. */
  private static final String RECORDING = "generator_(60000_records__seed_4)";

  @TempDir Path directory;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aRunningJobsMetricsAreInFlinksRestApi() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Process run =
        TidemarkJar.run(
                "count",
                "--source=generator:records=60000,keys=3,rate=4000,seed=4",
                "--webUi=" + port,
                "--sink=file:" + directory.resolve("results.json"))
            .redirectOutput(directory.resolve("run.log").toFile())
            .start();
    try {
      String api = "http://127.0.0.1:" + port;
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

  private static boolean rose(Map<String, Double> before, Map<String, Double> after, String name) {
    return after.getOrDefault(name, 0.0) > before.getOrDefault(name, 0.0);
  }

  /**
   * tidemark's metrics of the running job, by name, from every vertex of it; waits for the job to
   * run and report them.
   */
  private Map<String, Double> tidemarkMetrics(String api) throws Exception {
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
      if (metrics.containsKey("recordsRead[" + RECORDING + "]") && metrics.containsKey("recordsIn")
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
