package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.KafkaClientProperties;
import dev.tidemark.pipelines.config.TidemarkOptions;
import dev.tidemark.pipelines.io.KafkaAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.flink.FlinkRunner;

/**
 * What a run needs outside its pipeline, checked or made by the command line before it runs: a
 * Kafka broker and topic at every {@code kafka://} address (checked while the pipeline is built), a
 * running JobManager at {@code --flinkMaster} and no sink on a cluster's stdout, and for an
 * embedded run its loopback-only configuration and run directory ({@link EmbeddedFlink}). Building
 * a pipeline does none of this, so a test builds one without a network or a disk.
 */
public final class RunPreparation {

  private static final String KAFKA = "kafka://";

  private RunPreparation() {}

  /**
   * Checks the runner's options and prepares the runner: on Flink, a cluster at {@code
   * --flinkMaster} that answers, or an embedded run's configuration, in a directory the caller
   * closes when the run ends.
   *
   * @throws dev.tidemark.pipelines.config.ConfigurationException with one line naming the option
   *     and what to check
   */
  public static RunDirectory prepareRunner(TidemarkOptions options) {
    if (options.getRunner() == FlinkRunner.class) {
      String master = options.getFlinkMaster();
      if (FlinkMasterCheck.isCluster(master)) {
        requireNoStdoutOnACluster(options);
        FlinkMasterCheck.requireCluster(master);
      } else if (options.getDetached()) {
        throw new ConfigurationException(
            "--detached: only for a cluster (--flinkMaster=HOST:PORT); an embedded run ends with"
                + " this process");
      } else if (options.getSavepointPath() != null) {
        // Beam's FlinkRunner restores from a savepoint only the jobs it submits to a cluster.
        throw new ConfigurationException(
            "--savepointPath: only for a cluster (--flinkMaster=HOST:PORT); an embedded run starts"
                + " empty, and a replay of a recording needs no savepoint");
      }
      return EmbeddedFlink.configure(options);
    }
    return RunDirectory.NONE;
  }

  /**
   * Checks that a broker answers at every {@code kafka://} address of {@code args}, with the client
   * properties of {@code --kafkaProperties}, and that its topic exists ({@link KafkaPreflight}).
   *
   * @throws ConfigurationException with one line naming the option and what to check
   */
  public static void requireKafkaTopics(TidemarkOptions options, List<String> args) {
    Map<String, String> kafka = KafkaClientProperties.from(options);
    for (String arg : args) {
      int equals = arg.indexOf('=');
      if (arg.startsWith("--") && equals > 0 && arg.startsWith(KAFKA, equals + 1)) {
        String option = arg.substring(2, equals);
        KafkaPreflight.requireTopic(
            option, KafkaAddress.parse(option, arg.substring(equals + 1)), kafka);
      }
    }
  }

  /**
   * {@link #requireKafkaTopics} on a thread of its own, while the caller builds the pipeline: the
   * check loads Kafka's client and asks each broker, about a second on a 2-core machine, and the
   * build does not need it. {@link KafkaTopicsCheck#await} gives its answer.
   */
  public static KafkaTopicsCheck startKafkaTopicsCheck(TidemarkOptions options, List<String> args) {
    return KafkaTopicsCheck.start(() -> requireKafkaTopics(options, args));
  }

  /**
   * On a cluster, stdout is the TaskManagers' log: results, late records or dead letters written
   * there are mixed with Flink's logging, on whichever machine ran the task, and go with the log.
   *
   * @throws ConfigurationException one line for each sink that is stdout
   */
  static void requireNoStdoutOnACluster(TidemarkOptions options) {
    Map<String, String> sinks = new LinkedHashMap<>();
    sinks.put("sink", options.getSink());
    sinks.put("lateSink", options.getLateSink());
    sinks.put("deadLetterSink", options.getDeadLetterSink());
    List<String> mistakes = new ArrayList<>();
    sinks.forEach(
        (option, sink) -> {
          if (sink == null || sink.trim().equals("stdout")) {
            mistakes.add(
                "--"
                    + option
                    + ": stdout on a cluster is the TaskManagers' log, where records are lost among"
                    + " Flink's lines; give kafka://HOST:PORT/TOPIC, or file:PATH on a path every"
                    + " TaskManager shares");
          }
        });
    if (!mistakes.isEmpty()) {
      throw new ConfigurationException(String.join("\n", mistakes));
    }
  }
}
