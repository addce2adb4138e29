package dev.tidemark.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * {@code metrics}' rows as a consumer of its results topic keeps them: per {@code
 * index_name|event_time_log|op_type}, the count of the latest pane (the highest {@code pane}); and
 * what a recording of S5 records should give.
 */
final class MetricsRows {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private MetricsRows() {}

  /** Per (i, window end, op), the number of {@code lines}, S5 records, in 1 s windows. */
  static Map<String, Long> expected(List<String> lines) throws IOException {
    Map<String, Long> expected = new TreeMap<>();
    for (String line : lines) {
      JsonNode record = JSON.readTree(line);
      long t = record.get("t").asLong();
      long end = t - Math.floorMod(t, 1000L) + 1000;
      expected.merge(
          record.get("i").asText()
              + "|"
              + SECONDS.format(java.time.Instant.ofEpochMilli(end))
              + "|"
              + record.get("op").asText(),
          1L,
          Long::sum);
    }
    return expected;
  }

  /**
   * Reads {@code topic} from the start until the latest pane of every row equals {@code expected}
   * or {@code timeout} passes, and returns what it read.
   */
  static Map<String, Long> latest(
      String bootstrapServers, String topic, Map<String, Long> expected, Duration timeout)
      throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Long> panes = new TreeMap<>();
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.GROUP_ID_CONFIG,
            "tidemark-it-" + UUID.randomUUID(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class.getName());
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!counts.equals(expected) && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          JsonNode row = JSON.readTree(record.value());
          String key =
              row.get("index_name").asText()
                  + "|"
                  + row.get("event_time_log").asText()
                  + "|"
                  + row.get("op_type").asText();
          long pane = row.get("pane").asLong();
          if (pane >= panes.getOrDefault(key, -1L)) {
            panes.put(key, pane);
            counts.put(key, row.get("count_result").asLong());
          }
        }
      }
    }
    return counts;
  }
}
