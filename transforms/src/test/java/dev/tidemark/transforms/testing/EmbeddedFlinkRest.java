package dev.tidemark.transforms.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.runners.flink.FlinkPipelineOptions;

/**
 * The REST API of the embedded Flink cluster that one pipeline run starts, on a free loopback port
 * chosen for it, so that code running in the job can ask how far the job's tasks have come.
 */
public final class EmbeddedFlinkRest implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Task states of a task that is not yet reading its input. */
  private static final List<String> STARTING =
      List.of("CREATED", "SCHEDULED", "DEPLOYING", "INITIALIZING");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final int port;
  private final String confDir;

  private EmbeddedFlinkRest(int port, String confDir) {
    this.port = port;
    this.confDir = confDir;
  }

  /** A configuration for the next run's cluster whose REST API listens on a free port. */
  public static EmbeddedFlinkRest onFreePort() {
    try {
      int port = LineServer.freePort();
      Path dir = Files.createTempDirectory("embedded-flink-rest");
      dir.toFile().deleteOnExit();
      Path conf = dir.resolve("flink-conf.yaml");
      Files.writeString(
          conf, "rest.address: 127.0.0.1\nrest.bind-address: 127.0.0.1\nrest.port: " + port + "\n");
      conf.toFile().deleteOnExit();
      return new EmbeddedFlinkRest(port, dir.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Makes {@code options}' embedded cluster use this configuration. */
  public void applyTo(FlinkPipelineOptions options) {
    options.setFlinkConfDir(confDir);
  }

  /**
   * Whether the cluster's one running job has every task past its start, and exactly {@code
   * finished} tasks of the step whose name contains {@code step} finished; false while the cluster
   * does not answer.
   */
  boolean allStartedAndFinished(String step, int finished) {
    try {
      JsonNode jobs = get("/jobs/overview").path("jobs");
      if (jobs.size() != 1) {
        return false;
      }
      JsonNode vertices = get("/jobs/" + jobs.get(0).path("jid").asText()).path("vertices");
      boolean ready = vertices.size() > 0;
      for (JsonNode vertex : vertices) {
        JsonNode tasks = vertex.path("tasks");
        for (String state : STARTING) {
          ready &= tasks.path(state).asInt() == 0;
        }
        if (vertex.path("name").asText().contains(step)) {
          ready &= tasks.path("FINISHED").asInt() == finished;
        }
      }
      return ready;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    return JSON.readTree(FlinkRestGet.get("127.0.0.1:" + port, path));
  }
}
