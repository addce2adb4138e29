package dev.tidemark.pipelines;

import dev.tidemark.stack.KafkaNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** Reads a topic's values from the start, as a new consumer group, for the ITs' checks. */
final class TopicValues {

  private TopicValues() {}

  /** Hands every value of {@code topic} to {@code each} until {@code done} or {@code timeout}. */
  static void read(
      String bootstrapServers,
      String topic,
      Duration timeout,
      Consumer<String> each,
      BooleanSupplier done) {
    readKeyed(bootstrapServers, topic, timeout, (key, value) -> each.accept(value), done);
  }

  /** The same, with each record's key (null if it has none). */
  static void readKeyed(
      String bootstrapServers,
      String topic,
      Duration timeout,
      BiConsumer<String, String> each,
      BooleanSupplier done) {
    Map<String, Object> config = KafkaNode.readFromTheStart(bootstrapServers, "tidemark-it-");
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!done.getAsBoolean() && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          each.accept(record.key(), record.value());
        }
      }
    }
  }
}
