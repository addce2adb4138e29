package dev.tidemark.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.stack.FlinkNodes;
import dev.tidemark.transforms.testing.ChildJvms;
import dev.tidemark.transforms.testing.LineServer;
import dev.tidemark.transforms.testing.PortRaces;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A real Flink 1.19 standalone session cluster, configured as the stack's ({@link FlinkNodes}): one
 * JobManager and TaskManagers with 2 slots each, each in its own JVM started from the test
 * classpath on free loopback ports ({@link ChildJvms}; Flink's own distribution is not served here,
 * the runner's jars are enough). {@link #close()} stops them all. Tests share one through {@link
 * SharedFlinkCluster}, which leaves it as it found it after each test.
 */
final class FlinkCluster implements AutoCloseable {

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TASK_MANAGER = "taskmanager";

  private final ChildJvms jvms;
  private final int restPort;

  private final int taskManagers;
  private Process jobManager;

  /** The TaskManagers in the order they started, the dead among them. */
  private final List<Process> taskManagerProcesses = new ArrayList<>();

  /**
   * Each node's own Prometheus port, chosen free as it starts. Why not a range, from which each
   * node takes the first free port: a scrape of the whole range also reached other tests' servers
   * that took a port in it. A {@code LineServer} took such a connection for its socket source's,
   * sent its lines there and closed, and the source, which connected after, never ended.
   */
  private final Map<Process, Integer> prometheusPorts = new LinkedHashMap<>();

  private FlinkCluster(ChildJvms jvms, int restPort, int taskManagers) {
    this.jvms = jvms;
    this.restPort = restPort;
    this.taskManagers = taskManagers;
  }

  /**
   * A cluster with {@code taskManagers} TaskManagers of 2 slots each, started again on new ports if
   * another process took one first ({@link PortRaces}).
   */
  static FlinkCluster start(int taskManagers) throws Exception {
    return PortRaces.startOnFreePorts(() -> startOnFreePorts(taskManagers));
  }

  private static FlinkCluster startOnFreePorts(int taskManagers) throws Exception {
    ChildJvms jvms = ChildJvms.inTemporaryDirectory("tidemark-flink-");
    int restPort = LineServer.freePort();
    int jobManagerPrometheusPort = LineServer.freePort();
    FlinkCluster cluster = new FlinkCluster(jvms, restPort, taskManagers);
    try {
      // The nodes' temporary files (the job's jar, 200 MB, the RPC jar Flink unpacks, spilled
      // data) go in the cluster's directory, which close() deletes: a TaskManager that a test
      // kills, or that is stopped by force, leaves its own behind.
      Path temporary = Files.createDirectory(jvms.directory().resolve("tmp"));
      Files.writeString(
          jvms.directory().resolve("flink-conf.yaml"),
          FlinkNodes.configuration(restPort, LineServer.freePort())
              // The JobManager's port; each TaskManager is given its own (launch).
              + FlinkNodes.prometheusReporter(jobManagerPrometheusPort, jobManagerPrometheusPort)
              + "io.tmp.dirs: "
              + temporary
              + "\n");
      cluster.jobManager =
          cluster.launch(FlinkNodes.JOB_MANAGER, "jobmanager", jobManagerPrometheusPort);
      for (int i = 0; i < taskManagers; i++) {
        cluster.startTaskManager();
      }
      cluster.awaitIdle();
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** The directory of the cluster's {@code flink-conf.yaml}, as Flink's CLI takes it. */
  Path configurationDirectory() {
    return jvms.directory();
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
   * What the nodes' Prometheus reporters serve, as a Prometheus server scrapes them: the text of
   * every live node's {@code /metrics}, one after another.
   */
  String scrapePrometheus() throws InterruptedException {
    StringBuilder scraped = new StringBuilder();
    for (Map.Entry<Process, Integer> node : prometheusPorts.entrySet()) {
      if (!node.getKey().isAlive()) {
        continue;
      }
      try {
        scraped.append(
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + node.getValue() + "/metrics"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body());
      } catch (IOException notUpYet) {
        // The node's reporter does not listen yet.
      }
    }
    return scraped.toString();
  }

  /**
   * Every failure of the cluster's latest job so far, as Flink's REST API lists them (each restart
   * has one): to tell a failover from a wrong result when a test fails.
   */
  String failures() throws IOException, InterruptedException {
    return ofTheLatestJob("/exceptions?maxExceptions=10", "no job");
  }

  /**
   * In a few lines, where the cluster's latest job is: its state, its failures (the first line of
   * each), its checkpoints, and what it restored from; for a test's message, before the logs.
   */
  String diagnosis() throws IOException, InterruptedException {
    JsonNode checkpoints = JSON.readTree(checkpoints());
    JsonNode counts = checkpoints.path("counts");
    StringBuilder diagnosis =
        new StringBuilder("the latest job is ")
            .append(latestJobState())
            .append("; checkpoints completed ")
            .append(counts.path("completed").asInt())
            .append(", failed ")
            .append(counts.path("failed").asInt())
            .append(", in progress ")
            .append(counts.path("in_progress").asInt())
            .append("; restored from ")
            .append(
                checkpoints.path("latest").path("restored").path("external_path").asText("none"))
            .append("; its failures:");
    for (JsonNode failure : JSON.readTree(failures()).path("exceptionHistory").path("entries")) {
      diagnosis
          .append("\n  ")
          .append(failure.path("taskName").asText("(the job)"))
          .append(": ")
          .append(failure.path("stacktrace").asText().lines().findFirst().orElse(""));
    }
    return diagnosis.toString();
  }

  /** The checkpoint statistics of the cluster's latest job, as Flink's REST API gives them. */
  String checkpoints() throws IOException, InterruptedException {
    return ofTheLatestJob("/checkpoints", "{}");
  }

  /** The configuration of the cluster's latest job, as its Web UI shows it. */
  String latestJobConfiguration() throws IOException, InterruptedException {
    return ofTheLatestJob("/config", "{}");
  }

  /** The state of the job submitted last, e.g. {@code RUNNING} or {@code FINISHED}. */
  String latestJobState() throws IOException, InterruptedException {
    return latestJob().map(job -> job.path("state").asText()).orElse("no job");
  }

  /** The state of the job {@code id}, e.g. {@code RUNNING}. */
  String jobState(String id) throws IOException, InterruptedException {
    return JSON.readTree(rest("/jobs/" + id)).path("state").asText();
  }

  /** The name the job {@code id} is listed under. */
  String jobName(String id) throws IOException, InterruptedException {
    return JSON.readTree(rest("/jobs/" + id)).path("name").asText();
  }

  /** Waits until the job submitted last is in {@code state}, e.g. {@code RUNNING}. */
  void awaitLatestJob(String state) throws Exception {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (!latestJobState().equals(state)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the latest job is " + latestJobState() + ", not " + state);
      }
      Thread.sleep(200);
    }
  }

  /** The REST API's answer about the cluster's latest job, or {@code noJob} before there is one. */
  private String ofTheLatestJob(String resource, String noJob)
      throws IOException, InterruptedException {
    Optional<JsonNode> job = latestJob();
    return job.isEmpty() ? noJob : rest("/jobs/" + job.get().path("jid").asText() + resource);
  }

  private Optional<JsonNode> latestJob() throws IOException, InterruptedException {
    JsonNode latest = null;
    for (JsonNode job : JSON.readTree(rest("/jobs/overview")).path("jobs")) {
      if (latest == null || job.path("start-time").asLong() > latest.path("start-time").asLong()) {
        latest = job;
      }
    }
    return Optional.ofNullable(latest);
  }

  /**
   * Stops the job submitted last with a savepoint in {@code directory}, as {@code flink stop
   * --savepointPath} does, and returns where the savepoint is once it is complete.
   */
  String stopTheLatestJobWithASavepoint(Path directory) throws Exception {
    String job = latestJob().orElseThrow().path("jid").asText();
    String body =
        JSON.createObjectNode()
            .put("targetDirectory", directory.toUri().toString())
            .put("drain", false)
            .toString();
    String trigger =
        JSON.readTree(
                HttpClient.newHttpClient()
                    .send(
                        HttpRequest.newBuilder(
                                URI.create(
                                    "http://127.0.0.1:" + restPort + "/jobs/" + job + "/stop"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                        HttpResponse.BodyHandlers.ofString())
                    .body())
            .path("request-id")
            .asText();
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode status = JSON.readTree(rest("/jobs/" + job + "/savepoints/" + trigger));
      if (status.path("status").path("id").asText().equals("COMPLETED")) {
        JsonNode operation = status.path("operation");
        if (operation.has("failure-cause")) {
          throw new AssertionError("the savepoint failed: " + operation);
        }
        return operation.path("location").asText();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the savepoint of " + job + " did not complete in time");
  }

  /** Cancels every job the cluster runs, as a user does in the Web UI. */
  void cancelJobs() throws IOException, InterruptedException {
    FlinkRest.cancelJobs(master());
  }

  @Override
  public void close() throws IOException {
    jvms.close();
  }

  /** Starts a node whose Prometheus reporter serves on {@code prometheusPort}. */
  private Process launch(String mainClass, String log, int prometheusPort, String... more)
      throws IOException {
    List<String> args = new ArrayList<>(FlinkNodes.JVM_OPTIONS);
    args.addAll(FlinkNodes.LOG_OPTIONS);
    // What tidemark's steps say as they run (a partition gone idle, a sink's restore), for the
    // messages of failing tests.
    args.add("-Dorg.slf4j.simpleLogger.log.dev.tidemark=info");
    args.addAll(List.of(mainClass, "--configDir", jvms.directory().toString()));
    args.add("-Dmetrics.reporter.prom.port=" + prometheusPort);
    args.addAll(List.of(more));
    Process node = jvms.start(log, args.toArray(String[]::new));
    prometheusPorts.put(node, prometheusPort);
    return node;
  }

  /**
   * Kills every TaskManager that runs a task of the latest job at once, as crashed machines go, and
   * starts as many new ones: the job loses every task it had and can only go on by restoring from
   * its last checkpoint, on the slots that are left and those that come.
   */
  void killTheLatestJobsTaskManagers() throws Exception {
    String job = latestJob().orElseThrow().path("jid").asText();
    Set<String> running = new HashSet<>();
    for (JsonNode vertex : JSON.readTree(rest("/jobs/" + job)).path("vertices")) {
      String vertexId = vertex.path("id").asText();
      for (JsonNode taskManager :
          JSON.readTree(rest("/jobs/" + job + "/vertices/" + vertexId + "/taskmanagers"))
              .path("taskmanagers")) {
        running.add(taskManager.path("taskmanager-id").asText());
      }
    }
    if (running.isEmpty()) {
      throw new IllegalStateException("the job " + job + " runs on no TaskManager");
    }
    for (String resourceId : running) {
      taskManagerProcesses
          .get(Integer.parseInt(resourceId.substring(TASK_MANAGER.length())) - 1)
          .destroyForcibly();
    }
    for (int i = 0; i < running.size(); i++) {
      startTaskManager();
    }
  }

  /** Starts one more TaskManager, whose resource id is its log's name ({@code taskmanagerN}). */
  private void startTaskManager() throws IOException {
    String name = TASK_MANAGER + (taskManagerProcesses.size() + 1);
    taskManagerProcesses.add(
        launch(
            FlinkNodes.TASK_MANAGER,
            name,
            LineServer.freePort(),
            "-Dtaskmanager.resource-id=" + name));
  }

  /**
   * Cancels every job the cluster runs and waits until it has as many TaskManagers as it started
   * with, every slot free: as a new cluster would be for the next test.
   */
  void reset() throws Exception {
    cancelJobs();
    if (taskManagerProcesses.stream().filter(Process::isAlive).count() < taskManagers) {
      throw new IllegalStateException("a TaskManager died:\n" + logs());
    }
    awaitIdle();
  }

  /** Waits until every TaskManager has registered, no dead one is left, and every slot is free. */
  private void awaitIdle() throws Exception {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!jobManager.isAlive()) {
        throw new IllegalStateException("the JobManager exited:\n" + logs());
      }
      try {
        JsonNode overview = JSON.readTree(rest("/overview"));
        if (overview.path("taskmanagers").asInt() == taskManagers
            && overview.path("slots-available").asInt() == 2 * taskManagers
            && overview.path("jobs-running").asInt() == 0) {
          return;
        }
      } catch (IOException notYet) {
        // The REST endpoint is not up yet.
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("the cluster did not become idle in time:\n" + logs());
  }

  /**
   * The lines of every TaskManager's log, the killed ones' too, that contain one of {@code texts},
   * each after its log's name: what the job's steps said about a restore, for a test's message.
   */
  String taskManagerLines(String... texts) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i <= taskManagerProcesses.size(); i++) {
      String log = TASK_MANAGER + i;
      for (String text : texts) {
        for (String line : jvms.linesContaining(log, text)) {
          lines.append("\n  ").append(log).append(": ").append(line);
        }
      }
    }
    return lines.toString();
  }

  private String logs() throws IOException {
    StringBuilder logs = new StringBuilder(jvms.tail("jobmanager"));
    for (int i = 1; i <= taskManagerProcesses.size(); i++) {
      logs.append("\n").append(jvms.tail("taskmanager" + i));
    }
    return logs.toString();
  }
}
