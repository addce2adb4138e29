package dev.tidemark.pipelines;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What a user does through Flink's REST API (a cluster's, or an embedded run's with --webUi). */
final class FlinkRest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private FlinkRest() {}

  /** Cancels every job Flink at {@code hostPort} runs, as the Web UI's "Cancel Job" does. */
  static void cancelJobs(String hostPort) throws IOException, InterruptedException {
    for (String id : jobIds(hostPort)) {
      HTTP.send(
          HttpRequest.newBuilder(URI.create("http://" + hostPort + "/jobs/" + id + "?mode=cancel"))
              .timeout(Duration.ofSeconds(5))
              .method("PATCH", HttpRequest.BodyPublishers.noBody())
              .build(),
          HttpResponse.BodyHandlers.discarding());
    }
  }

  /** The ids of the jobs, in the order {@code GET /jobs} lists them; none if nothing answers. */
  static List<String> jobIds(String hostPort) throws InterruptedException {
    String jobs;
    try {
      jobs =
          HTTP.send(
                  HttpRequest.newBuilder(URI.create("http://" + hostPort + "/jobs"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
    } catch (IOException notYet) {
      return List.of();
    }
    List<String> ids = new ArrayList<>();
    for (String id : jobs.split("\"id\":\"")) {
      if (id.length() >= 32 && id.substring(0, 32).matches("[0-9a-f]{32}")) {
        ids.add(id.substring(0, 32));
      }
    }
    return ids;
  }
}
