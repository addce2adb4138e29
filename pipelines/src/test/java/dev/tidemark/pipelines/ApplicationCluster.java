package dev.tidemark.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.stack.FlinkNodes;
import dev.tidemark.transforms.testing.ChildJvms;
import dev.tidemark.transforms.testing.FlinkRestGet;
import dev.tidemark.transforms.testing.LineServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Flink application cluster of the stack's configuration ({@link FlinkNodes}): a JobManager that
 * runs one jar's main in application mode ({@link ApplicationModeJobManager}) and one TaskManager
 * of 2 slots, each in a JVM of its own on free loopback ports. {@link #close()} stops them.
 */
final class ApplicationCluster implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

  private final ChildJvms jvms;
  private final int restPort;

  private ApplicationCluster(ChildJvms jvms, int restPort) {
    this.jvms = jvms;
    this.restPort = restPort;
  }

  /** Starts a cluster whose JobManager runs {@code jar}'s main with {@code programArgs}. */
  static ApplicationCluster start(Path jar, List<String> programArgs) throws Exception {
    ChildJvms jvms = ChildJvms.inTemporaryDirectory("tidemark-application-");
    ApplicationCluster cluster = new ApplicationCluster(jvms, LineServer.freePort());
    try {
      Path temporary = Files.createDirectory(jvms.directory().resolve("tmp"));
      Files.writeString(
          jvms.directory().resolve("flink-conf.yaml"),
          FlinkNodes.configuration(cluster.restPort, LineServer.freePort())
              + "io.tmp.dirs: "
              + temporary
              + "\n");
      List<String> jobManager = cluster.node(ApplicationModeJobManager.class.getName());
      jobManager.addAll(List.of("--jar", jar.toString(), "--"));
      jobManager.addAll(programArgs);
      jvms.start("jobmanager", jobManager.toArray(String[]::new));
      jvms.start("taskmanager", cluster.node(FlinkNodes.TASK_MANAGER).toArray(String[]::new));
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  private List<String> node(String mainClass) {
    List<String> args = new ArrayList<>(FlinkNodes.JVM_OPTIONS);
    args.addAll(FlinkNodes.LOG_OPTIONS);
    args.addAll(List.of(mainClass, "--configDir", jvms.directory().toString()));
    return args;
  }

  /**
   * The job the application runs, once it runs: its name and id; fails with the JobManager's log if
   * there is none in time.
   */
  JsonNode awaitRunningJob() throws Exception {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        for (JsonNode job :
            JSON.readTree(FlinkRestGet.get(master(), "/jobs/overview")).path("jobs")) {
          if (job.path("state").asText().equals("RUNNING")) {
            return job;
          }
        }
      } catch (IOException notYet) {
        // The JobManager's REST API is not up yet.
      }
      Thread.sleep(500);
    }
    throw new AssertionError("no running job in time:\n" + jvms.tail("jobmanager"));
  }

  /** The REST address. */
  String master() {
    return "localhost:" + restPort;
  }

  @Override
  public void close() throws IOException {
    jvms.close();
  }
}
