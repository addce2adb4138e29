package dev.tidemark.stack;

import java.util.List;
import java.util.stream.Stream;

/**
 * A Flink 1.19 standalone session cluster on loopback: its {@code flink-conf.yaml} and the main
 * classes of its JobManager and TaskManagers, each started with {@code --configDir DIR}. Sized for
 * a 2-core machine: TaskManagers of 2 slots and about 1.3 GB each.
 */
public final class FlinkNodes {

  public static final String JOB_MANAGER =
      "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  public static final String TASK_MANAGER =
      "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

  /**
   * The JVM options every node takes, before its main class: the packages of {@code java.base} that
   * Flink 1.19's own distribution opens on Java 17 ({@code --add-opens} in the {@code
   * env.java.opts.all} of its default configuration), so that these nodes run jobs as a cluster
   * installed from that distribution does. Kryo reaches into them when it copies operator state
   * that holds JDK collections; without them such a checkpoint fails with {@code
   * InaccessibleObjectException}.
   */
  public static final List<String> JVM_OPTIONS =
      Stream.of(
              "java.lang",
              "java.net",
              "java.io",
              "java.nio",
              "sun.nio.ch",
              "java.lang.reflect",
              "java.text",
              "java.time",
              "java.util",
              "java.util.concurrent",
              "java.util.concurrent.atomic",
              "java.util.concurrent.locks")
          .map(opened -> "--add-opens=java.base/" + opened + "=ALL-UNNAMED")
          .toList();

  /**
   * How the nodes log, with SLF4J's simple logger: each line with its date and time, and without
   * two kinds of lines that buried the rest of a TaskManager's log: the line Flink's Kryo
   * serializer writes each time it makes one, that Kryo's Scala extensions are not on the class
   * path (no tidemark job uses Scala), and the hundred-line dump of its configuration that every
   * Kafka client writes as it starts, with the client library's version and metrics notes. Warnings
   * and errors still come.
   */
  public static final List<String> LOG_OPTIONS =
      List.of(
          "-Dorg.slf4j.simpleLogger.showDateTime=true",
          "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd HH:mm:ss.SSS",
          "-Dorg.slf4j.simpleLogger.log.org.apache.flink.api.java.typeutils.runtime.kryo"
              + ".KryoSerializer=warn",
          "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.clients.consumer.ConsumerConfig=warn",
          "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.clients.producer.ProducerConfig=warn",
          "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.clients.admin.AdminClientConfig=warn",
          "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.common=warn");

  private FlinkNodes() {}

  /** The cluster's {@code flink-conf.yaml}: REST (and Web UI) on {@code restPort}. */
  public static String configuration(int restPort, int rpcPort) {
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
        // The cluster's classpath has the Kafka broker's jars, whose Jackson has a Scala module;
        // loading Jackson from that classpath keeps the job's Jackson the same type.
        "classloader.parent-first-patterns.additional: com.fasterxml.jackson",
        "heartbeat.timeout: 10000",
        "heartbeat.interval: 2000",
        // The REST API (the Web UI, tidemark's client) shows metrics at most 1 s old, not 10.
        "metrics.fetcher.update-interval: 1000",
        // The REST API's metric fetcher starts no new fetch while one is under way, and waits for
        // each TaskManager's answer for web.timeout: by default 10 minutes, during which a
        // TaskManager that died as it was asked leaves every job without metrics. 20 s, for every
        // REST call: an answer under load takes milliseconds, a submission a few seconds.
        "web.timeout: 20000",
        "");
  }

  /**
   * The lines of {@code flink-conf.yaml} that make every node serve its metrics, tidemark's among
   * them, to Prometheus at {@code http://HOST:PORT/metrics}: each node takes the first free port of
   * {@code firstPort} to {@code lastPort}. Flink's reporter listens on every interface; it has no
   * option to bind one.
   */
  public static String prometheusReporter(int firstPort, int lastPort) {
    return String.join(
        "\n",
        "metrics.reporter.prom.factory.class:"
            + " org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
        "metrics.reporter.prom.port: " + firstPort + "-" + lastPort,
        "");
  }
}
