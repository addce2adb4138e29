package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.io.kafka.WriteKafkaInTransactions;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kafka://HOST:PORT/TOPIC}: each line a record value, keyed when the pipeline gives it a key
 * ({@link Lines}). At least once, or exactly once in Kafka transactions ({@link
 * WriteKafkaInTransactions}, named {@code tidemark-TOPIC-OUTPUT-SHARD}) when the run checkpoints in
 * exactly-once mode on Flink ({@link OutputSinks}).
 */
final class KafkaSink implements Sink {

  private static final long serialVersionUID = 1L;

  private static final Logger LOG = LoggerFactory.getLogger("tidemark.rules");

  /** A line and its record key, which may be null. */
  private static final KvCoder<String, String> KEYED_LINE =
      KvCoder.of(NullableCoder.of(StringUtf8Coder.of()), NullableCoder.of(StringUtf8Coder.of()));

  private final String bootstrapServers;
  private final String topic;
  private final TreeMap<String, Object> clientProperties;

  /** Writers of the transactions, or 0 for an at-least-once sink. */
  private final int transactionalShards;

  KafkaSink(
      String bootstrapServers,
      String topic,
      Map<String, String> clientProperties,
      int transactionalShards) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.clientProperties = new TreeMap<>(clientProperties);
    this.transactionalShards = transactionalShards;
  }

  @Override
  public <T> PTransform<PCollection<T>, PDone> write(String output, Lines<T> lines) {
    PTransform<PCollection<KV<String, String>>, PDone> write = writeKeyed(output);
    return new PTransform<PCollection<T>, PDone>() {
      @Override
      public PDone expand(PCollection<T> elements) {
        return elements
            .apply(
                "KeyedLines",
                MapElements.into(
                        TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.strings()))
                    .via(
                        element -> {
                          String text = lines.text().apply(element);
                          return KV.of(
                              lines.key().apply(element),
                              lines.withdraws().apply(element) ? null : text);
                        }))
            .setCoder(KEYED_LINE)
            .apply("Write", write);
      }
    };
  }

  /** KafkaIO's writer flushes as each bundle ends; a transactional one commits then. */
  @Override
  public boolean waitsForItsServerEachBundle() {
    return true;
  }

  /** Writes lines with their record keys, exactly once or at least once. */
  private PTransform<PCollection<KV<String, String>>, PDone> writeKeyed(String output) {
    if (transactionalShards > 0) {
      LOG.info(
          "{}: {} written exactly once, in Kafka transactions tidemark-{}-{}-0 to -{}; a"
              + " read_committed consumer sees them as each checkpoint completes",
          this,
          output,
          topic,
          output,
          transactionalShards - 1);
      return WriteKafkaInTransactions.<String, String>to(bootstrapServers, topic)
          .withSerializers(StringSerializer.class, StringSerializer.class)
          .withClientConfig(clientProperties)
          .withShards(transactionalShards)
          .withTransactionalIdPrefix("tidemark-" + topic + "-" + output);
    }
    return KafkaIO.<String, String>write()
        .withBootstrapServers(bootstrapServers)
        .withTopic(topic)
        .withProducerConfigUpdates(clientProperties)
        .withKeySerializer(StringSerializer.class)
        .withValueSerializer(StringSerializer.class);
  }

  @Override
  public String toString() {
    return "kafka://" + bootstrapServers + "/" + topic;
  }
}
