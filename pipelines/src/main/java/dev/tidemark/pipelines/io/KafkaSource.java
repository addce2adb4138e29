package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.io.kafka.IdleAwareTimestampPolicyFactory;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * {@code kafka://HOST:PORT/TOPIC}: every partition, with tidemark's idle-aware policy; dead letters
 * and late records keep their topic, partition and offset.
 */
public final class KafkaSource implements Source {

  private final String bootstrapServers;
  private final String topic;

  KafkaSource(String bootstrapServers, String topic) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
  }

  @Override
  public PCollectionTuple read(
      Pipeline pipeline, String name, EventFormat format, EventTimeSettings settings) {
    SerializableFunction<String, @Nullable Instant> eventTimes = format.eventTimes();
    return pipeline
        .apply(
            "ReadKafka" + name,
            KafkaIO.<String, String>read()
                .withBootstrapServers(bootstrapServers)
                .withTopic(topic)
                .withKeyDeserializer(StringDeserializer.class)
                .withValueDeserializer(StringDeserializer.class)
                .withConsumerConfigUpdates(
                    Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, settings.startFrom()))
                .withTimestampPolicyFactory(
                    IdleAwareTimestampPolicyFactory.<String, String>byEventTime(
                            record -> {
                              String value = record.getKV().getValue();
                              return value == null ? null : eventTimes.apply(value);
                            })
                        .withMaxOutOfOrderness(settings.maxOutOfOrderness())
                        .withIdleTimeout(settings.idleTimeout())
                        .withMaxFutureSkew(settings.maxFutureSkew())))
        // Keep where each record is, so a dead letter or a late record can be found again.
        .apply(
            "WithPosition" + name,
            MapElements.into(TypeDescriptor.of(ArrivedLine.class))
                .via(
                    (KafkaRecord<String, String> record) ->
                        ArrivedLine.fromKafka(
                            record.getKV().getValue() == null ? "" : record.getKV().getValue(),
                            new SourcePosition(
                                record.getTopic(), record.getPartition(), record.getOffset()))))
        .apply(
            "Parse" + name,
            ParseEvents.withPositions(format).withMaxFutureSkew(settings.maxFutureSkew()));
  }
}
