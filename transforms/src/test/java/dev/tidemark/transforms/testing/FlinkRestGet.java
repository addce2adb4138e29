package dev.tidemark.transforms.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A question to a Flink REST API, a cluster's or an embedded run's, as tests ask it. */
public final class FlinkRestGet {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private FlinkRestGet() {}

  /** The answer to {@code GET path} at {@code hostPort}; an exception if it is not a 200. */
  public static String get(String hostPort, String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://" + hostPort + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(path + " answered " + response.statusCode());
    }
    return response.body();
  }
}
