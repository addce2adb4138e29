package dev.tidemark.pipelines;

import dev.tidemark.stack.FlinkNodes;
import dev.tidemark.transforms.testing.ChildJvms;
import dev.tidemark.transforms.testing.LineServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real Flink 1.19 standalone session cluster, configured as the stack's ({@link FlinkNodes}): one
 * JobManager and TaskManagers with 2 slots each, each in its own JVM started from the test
 * classpath on free loopback ports ({@link ChildJvms}; Flink's own distribution is not served here,
 * the runner's jars are enough). {@link #close()} stops them all.
 */
final class FlinkCluster implements AutoCloseable {

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

  private final ChildJvms jvms;
  private final int restPort;

  /** The JobManager first, then the TaskManagers in the order they started. */
  private final List<Process> processes = new ArrayList<>();

  private FlinkCluster(ChildJvms jvms, int restPort) {
    this.jvms = jvms;
    this.restPort = restPort;
  }

  /** A cluster with one TaskManager. */
  static FlinkCluster start() throws Exception {
    return start(1);
  }

  /** A cluster with {@code taskManagers} TaskManagers of 2 slots each. */
  static FlinkCluster start(int taskManagers) throws Exception {
    ChildJvms jvms = ChildJvms.inTemporaryDirectory("tidemark-flink-");
    int restPort = LineServer.freePort();
    FlinkCluster cluster = new FlinkCluster(jvms, restPort);
    try {
      // The nodes' temporary files (the job's jar, 200 MB, the RPC jar Flink unpacks, spilled
      // data) go in the cluster's directory, which close() deletes: a TaskManager that a test
      // kills, or that is stopped by force, leaves its own behind.
      Path temporary = Files.createDirectory(jvms.directory().resolve("tmp"));
      Files.writeString(
          jvms.directory().resolve("flink-conf.yaml"),
          FlinkNodes.configuration(restPort, LineServer.freePort())
              + "io.tmp.dirs: "
              + temporary
              + "\n");
      cluster.launch(FlinkNodes.JOB_MANAGER, "jobmanager");
      for (int i = 0; i < taskManagers; i++) {
        cluster.startTaskManager();
      }
      cluster.awaitTaskManagers(taskManagers);
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** What {@code --flinkMaster} takes. */
  String master() {
    return "localhost:" + restPort;
  }

  /**
   * Submits {@code java -jar tidemark.jar ARGS --flinkMaster=<this cluster>}, its output and errors
   * to {@code log}; the process runs until the job ends, or until it is destroyed.
   */
  Process submit(Path log, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--flinkMaster=" + master());
    return TidemarkJar.run(all.toArray(String[]::new)).redirectOutput(log.toFile()).start();
  }

  /** The REST API's answer to {@code GET path}. */
  String rest(String path) throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /**
   * Every failure of the cluster's first job so far, as Flink's REST API lists them (each restart
   * has one): to tell a failover from a wrong result when a test fails.
   */
  String failures() throws IOException, InterruptedException {
    return ofTheFirstJob("/exceptions?maxExceptions=10", "no job");
  }

  /** The checkpoint statistics of the cluster's first job, as Flink's REST API gives them. */
  String checkpoints() throws IOException, InterruptedException {
    return ofTheFirstJob("/checkpoints", "{}");
  }

  /** The REST API's answer about the cluster's first job, or {@code noJob} before there is one. */
  private String ofTheFirstJob(String resource, String noJob)
      throws IOException, InterruptedException {
    List<String> jobs = jobIds();
    return jobs.isEmpty() ? noJob : rest("/jobs/" + jobs.get(0) + resource);
  }

  /** Cancels every job the cluster runs, as a user does in the Web UI. */
  void cancelJobs() throws IOException, InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    for (String id : jobIds()) {
      http.send(
          HttpRequest.newBuilder(
                  URI.create("http://127.0.0.1:" + restPort + "/jobs/" + id + "?mode=cancel"))
              .method("PATCH", HttpRequest.BodyPublishers.noBody())
              .build(),
          HttpResponse.BodyHandlers.discarding());
    }
  }

  /** The ids of the cluster's jobs, in the order {@code GET /jobs} lists them. */
  private List<String> jobIds() throws IOException, InterruptedException {
    List<String> ids = new ArrayList<>();
    for (String id : rest("/jobs").split("\"id\":\"")) {
      if (id.length() >= 32 && id.substring(0, 32).matches("[0-9a-f]{32}")) {
        ids.add(id.substring(0, 32));
      }
    }
    return ids;
  }

  @Override
  public void close() throws IOException {
    jvms.close();
  }

  private void launch(String mainClass, String log) throws IOException {
    processes.add(jvms.start(log, mainClass, "--configDir", jvms.directory().toString()));
  }

  /** Kills TaskManager {@code number} (from 1) at once, as a crashed machine would go. */
  void killTaskManager(int number) {
    processes.get(number).destroyForcibly();
  }

  /** Starts one more TaskManager, numbered after the others. */
  void startTaskManager() throws IOException {
    launch(FlinkNodes.TASK_MANAGER, "taskmanager" + processes.size());
  }

  private void awaitTaskManagers(int count) throws Exception {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      for (Process process : processes) {
        if (!process.isAlive()) {
          throw new IllegalStateException("a Flink process exited:\n" + logs());
        }
      }
      try {
        if (rest("/overview").contains("\"taskmanagers\":" + count)) {
          return;
        }
      } catch (IOException notYet) {
        // The REST endpoint is not up yet.
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("no TaskManager registered in time:\n" + logs());
  }

  private String logs() throws IOException {
    StringBuilder logs = new StringBuilder(jvms.tail("jobmanager"));
    for (int i = 1; i < processes.size(); i++) {
      logs.append("\n").append(jvms.tail("taskmanager" + i));
    }
    return logs.toString();
  }
}
