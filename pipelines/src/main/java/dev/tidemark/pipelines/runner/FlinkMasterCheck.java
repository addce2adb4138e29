package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.ConfigurationException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Checks, before a job is submitted, that {@code --flinkMaster} is the REST endpoint of a running
 * Flink cluster: it asks {@code GET /config}, which every JobManager answers with its {@code
 * flink-version}. Without it, a wrong address fails a minute later with a stack trace, after the
 * Flink client has retried.
 */
final class FlinkMasterCheck {

  /** How long the cluster has to answer. */
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private FlinkMasterCheck() {}

  /**
   * Whether {@code flinkMaster} names a cluster, not Flink in this process ({@code [local]}, {@code
   * [auto]}).
   */
  static boolean isCluster(@Nullable String flinkMaster) {
    return flinkMaster != null && !flinkMaster.startsWith("[");
  }

  /**
   * @throws ConfigurationException naming the address and what to check
   */
  static void requireCluster(String flinkMaster) {
    String address = flinkMaster.trim().replaceFirst("^https?://", "");
    if (!address.matches("[^:/\\s]+:\\d+")) {
      throw new ConfigurationException(
          "--flinkMaster: '"
              + flinkMaster
              + "' is not HOST:PORT; use [local] for embedded Flink, or the JobManager's REST"
              + " address, e.g. localhost:8081");
    }
    HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://" + address + "/config"))
            .timeout(TIMEOUT)
            .GET()
            .build();
    HttpResponse<String> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException | HttpTimeoutException e) {
      throw unreachable(
          address, e instanceof ConnectException ? "connection refused" : "no answer");
    } catch (IOException e) {
      throw unreachable(address, String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConfigurationException("--flinkMaster: interrupted while asking " + address);
    }
    if (response.statusCode() != 200 || !response.body().contains("\"flink-version\"")) {
      throw new ConfigurationException(
          "--flinkMaster: "
              + address
              + " answered GET /config with HTTP "
              + response.statusCode()
              + ", not as a Flink JobManager does; give the JobManager's REST address"
              + " (rest.port, 8081 by default)");
    }
  }

  private static ConfigurationException unreachable(String address, String why) {
    return new ConfigurationException(
        "--flinkMaster: no Flink cluster answered at "
            + address
            + " within "
            + TIMEOUT.toSeconds()
            + " s ("
            + why
            + "); check the JobManager's REST address and port (rest.port, 8081 by default) and"
            + " that the cluster runs");
  }
}
