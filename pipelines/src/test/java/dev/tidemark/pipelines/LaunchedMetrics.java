package dev.tidemark.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.transforms.testing.KafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code metrics} as the launcher tests run it: a topic of S5's records, the program arguments that
 * read it, and the rows it gives, read back from Kafka.
 */
final class LaunchedMetrics {

  private LaunchedMetrics() {}

  /**
   * Fills {@code topic} (two partitions) with S5's records and makes {@code <topic>-per-second};
   * returns each window's count.
   */
  static Map<String, Long> fill(KafkaBroker broker, String topic) throws Exception {
    broker.createTopic(topic, 2);
    broker.createTopic(topic + "-per-second", 1);
    List<String> lines = MetricsRows.records(300, 41);
    broker.send(topic, 0, lines);
    return MetricsRows.expected(lines);
  }

  /**
   * The program arguments of {@code metrics} from {@code topic} to {@code <topic>-per-second}, one
   * row per window, the late records and dead letters to files in {@code directory}.
   */
  static List<String> arguments(KafkaBroker broker, String topic, Path directory) {
    return ClusterMetrics.arguments(
        broker, directory, topic, topic + "-per-second", "--emit=final");
  }

  /**
   * Each window's count in {@code <topic>-per-second}, once every window of {@code expected} has a
   * row, or what the topic holds after two minutes.
   */
  static Map<String, Long> rows(KafkaBroker broker, String topic, Map<String, Long> expected) {
    Map<String, Long> counts = new TreeMap<>();
    TopicValues.read(
        broker.bootstrapServers(),
        topic + "-per-second",
        Duration.ofMinutes(2),
        value -> {
          JsonNode row = MetricsRows.readJson(value);
          counts.put(MetricsRows.windowOf(row), row.get("count_result").asLong());
        },
        () -> counts.keySet().containsAll(expected.keySet()));
    return counts;
  }
}
