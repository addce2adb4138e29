package dev.tidemark.pipelines;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tidemark.transforms.testing.FlinkRestGet;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** What a user does through Flink's REST API (a cluster's, or an embedded run's with --webUi). */
final class FlinkRest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

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
      jobs = FlinkRestGet.get(hostPort, "/jobs");
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

  /**
   * Uploads {@code jar} as the Web UI's "Submit New Job" does ({@code POST /jars/upload}, a
   * multipart form with the file as {@code jarfile}); returns the id the cluster gives it.
   */
  static String uploadJar(String hostPort, Path jar) throws IOException, InterruptedException {
    String boundary = "tidemark-" + UUID.randomUUID();
    HttpRequest.BodyPublisher form =
        HttpRequest.BodyPublishers.concat(
            HttpRequest.BodyPublishers.ofString(
                "--"
                    + boundary
                    + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                    + jar.getFileName()
                    + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n"),
            HttpRequest.BodyPublishers.ofFile(jar),
            HttpRequest.BodyPublishers.ofString("\r\n--" + boundary + "--\r\n"));
    HttpResponse<String> uploaded =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://" + hostPort + "/jars/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .timeout(Duration.ofMinutes(2))
                .POST(form)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    String file = JSON.readTree(uploaded.body()).path("filename").asText();
    if (uploaded.statusCode() != 200 || file.isEmpty()) {
      throw new IOException(
          "the upload answered " + uploaded.statusCode() + ": " + uploaded.body());
    }
    return Path.of(file).getFileName().toString();
  }

  /**
   * Runs the uploaded jar {@code jarId}'s main with {@code programArgs}, as the Web UI's "Submit"
   * does ({@code POST /jars/<id>/run}); the cluster's answer, whatever its status.
   */
  static HttpResponse<String> runJar(String hostPort, String jarId, List<String> programArgs)
      throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode();
    programArgs.forEach(body.putArray("programArgsList")::add);
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://" + hostPort + "/jars/" + jarId + "/run"))
            .header("Content-Type", "application/json")
            .timeout(Duration.ofMinutes(2))
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
