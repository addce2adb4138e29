package dev.tidemark.pipelines;

import dev.tidemark.transforms.testing.KafkaBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code metrics}, or {@code sql} with a query, from a topic to a topic, submitted from the shaded
 * jar to the test cluster.
 */
final class ClusterMetrics {

  private ClusterMetrics() {}

  /**
   * Submits {@code metrics} from {@code topic} to {@code resultsTopic}, at parallelism 2 unless
   * {@code options} say otherwise, closing the last windows 3 s after the input goes quiet unless
   * they give another {@code --idleTimeout}; late records and dead letters go to files in {@code
   * directory} unless {@code options} say otherwise (a cluster's stdout is its log), and the
   * client's output to {@code <topic>.log} there.
   */
  static Process submit(
      FlinkCluster cluster,
      KafkaBroker broker,
      Path directory,
      String topic,
      String resultsTopic,
      String... options)
      throws Exception {
    return cluster.submit(
        directory.resolve(topic + ".log"),
        arguments(broker, directory, topic, resultsTopic, options).toArray(String[]::new));
  }

  /**
   * Submits {@code sql} with {@code query} in place of {@code metrics}, with the same source, sinks
   * and {@code options} as {@link #submit}.
   */
  static Process submitSql(
      FlinkCluster cluster,
      KafkaBroker broker,
      Path directory,
      String topic,
      String resultsTopic,
      String query,
      String... options)
      throws Exception {
    List<String> args = arguments(broker, directory, topic, resultsTopic, options);
    args.set(0, "sql");
    args.add("--query=" + query);
    return cluster.submit(directory.resolve(topic + ".log"), args.toArray(String[]::new));
  }

  /** The program arguments {@link #submit} gives {@code metrics}. */
  static List<String> arguments(
      KafkaBroker broker, Path directory, String topic, String resultsTopic, String... options) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "metrics",
                "--source=kafka://" + broker.bootstrapServers() + "/" + topic,
                "--sink=kafka://" + broker.bootstrapServers() + "/" + resultsTopic));
    args.addAll(List.of(options));
    addUnlessGiven(args, "--idleTimeout=", "3s");
    addUnlessGiven(args, "--parallelism=", "2");
    addUnlessGiven(args, "--lateSink=", "file:" + directory.resolve(topic + "-late.json"));
    addUnlessGiven(args, "--deadLetterSink=", "file:" + directory.resolve(topic + "-dead.json"));
    return args;
  }

  private static void addUnlessGiven(List<String> args, String option, String value) {
    if (args.stream().noneMatch(arg -> arg.startsWith(option))) {
      args.add(option + value);
    }
  }
}
