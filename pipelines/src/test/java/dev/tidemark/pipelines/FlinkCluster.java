package dev.tidemark.pipelines;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Flink 1.19 standalone session cluster, one JobManager and one TaskManager with 2 slots,
 * each in its own JVM started from the test classpath on free loopback ports (Flink's own
 * distribution is not served here; the runner's jars are enough). {@link #close()} stops both, as
 * does a shutdown hook if the test JVM goes first.
 */
final class FlinkCluster implements AutoCloseable {

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

  private final Path directory;
  private final int restPort;
  private final List<Process> processes = new ArrayList<>();
  private final Thread killOnExit;

  private FlinkCluster(Path directory, int restPort) {
    this.directory = directory;
    this.restPort = restPort;
    this.killOnExit = new Thread(() -> processes.forEach(Process::destroyForcibly));
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /** A cluster with one TaskManager. */
  static FlinkCluster start() throws Exception {
    return start(1);
  }

  /** A cluster with {@code taskManagers} TaskManagers of 2 slots each. */
  static FlinkCluster start(int taskManagers) throws Exception {
    Path directory = Files.createTempDirectory("tidemark-flink-");
    int restPort = dev.tidemark.transforms.testing.LineServer.freePort();
    int rpcPort = dev.tidemark.transforms.testing.LineServer.freePort();
    Files.writeString(directory.resolve("flink-conf.yaml"), configuration(restPort, rpcPort));
    FlinkCluster cluster = new FlinkCluster(directory, restPort);
    try {
      cluster.launch(
          "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", "jobmanager");
      for (int i = 1; i <= taskManagers; i++) {
        cluster.launch(
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", "taskmanager" + i);
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

  @Override
  public void close() throws IOException {
    for (Process process : processes) {
      process.destroy();
    }
    for (Process process : processes) {
      try {
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down; the hook runs anyway.
    }
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  private void launch(String mainClass, String name) throws IOException {
    processes.add(
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                mainClass,
                "--configDir",
                directory.toString())
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve(name + ".log").toFile())
            .start());
  }

  /** Kills TaskManager {@code number} (from 1) at once, as a crashed machine would go. */
  void killTaskManager(int number) {
    processes.get(number).destroyForcibly();
  }

  /** Starts one more TaskManager, numbered after the others. */
  void startTaskManager() throws IOException {
    launch(
        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
        "taskmanager" + processes.size());
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
    StringBuilder logs = new StringBuilder();
    for (String name : List.of("jobmanager", "taskmanager1", "taskmanager2")) {
      Path log = directory.resolve(name + ".log");
      if (Files.exists(log)) {
        List<String> lines = Files.readAllLines(log);
        logs.append(String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
      }
    }
    return logs.toString();
  }

  private static String configuration(int restPort, int rpcPort) {
    return String.join(
        "\n",
        "jobmanager.rpc.address: localhost",
        "jobmanager.rpc.port: " + rpcPort,
        "jobmanager.bind-host: 127.0.0.1",
        "rest.address: localhost",
        "rest.bind-address: 127.0.0.1",
        "rest.port: " + restPort,
        "taskmanager.bind-host: 127.0.0.1",
        "taskmanager.host: localhost",
        "taskmanager.numberOfTaskSlots: 2",
        "jobmanager.memory.process.size: 1024m",
        "taskmanager.cpu.cores: 2",
        "taskmanager.memory.framework.heap.size: 128m",
        "taskmanager.memory.task.heap.size: 512m",
        "taskmanager.memory.managed.size: 256m",
        "taskmanager.memory.framework.off-heap.size: 128m",
        "taskmanager.memory.task.off-heap.size: 0m",
        "taskmanager.memory.network.min: 64m",
        "taskmanager.memory.network.max: 64m",
        "taskmanager.memory.jvm-metaspace.size: 256m",
        "taskmanager.memory.jvm-overhead.min: 192m",
        "taskmanager.memory.jvm-overhead.max: 192m",
        // The cluster runs on the test classpath, whose Kafka broker jars bring Jackson's Scala
        // module; loading Jackson from that classpath keeps the job's Jackson the same type.
        "classloader.parent-first-patterns.additional: com.fasterxml.jackson",
        "heartbeat.timeout: 10000",
        "heartbeat.interval: 2000",
        "");
  }
}
