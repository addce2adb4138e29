package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.io.kafka.IdleAwareTimestampPolicyFactory;
import dev.tidemark.transforms.io.kafka.ReadKafkaInBatches;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.replay.Replay;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * {@code kafka://HOST:PORT/TOPIC}: every partition, with tidemark's idle-aware policy; dead letters
 * and late records keep their topic, partition and offset. Values are read as bytes and decoded
 * strictly, once ({@link KafkaText}): a value that is not UTF-8, or is longer than {@code
 * maxRecordBytes}, is a dead letter, never a mangled record.
 */
public final class KafkaSource implements Source {

  private final String bootstrapServers;
  private final String topic;
  private final int maxRecordBytes;
  private final Map<String, String> clientProperties;

  KafkaSource(
      String bootstrapServers,
      String topic,
      int maxRecordBytes,
      Map<String, String> clientProperties) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.maxRecordBytes = maxRecordBytes;
    this.clientProperties = clientProperties;
  }

  @Override
  public String describe() {
    return "kafka://" + bootstrapServers + "/" + topic;
  }

  /**
   * The user's client properties, then what this source sets itself. Where the consumer group has
   * committed offsets, Kafka starts from them; {@code --startFrom} says where to start without them
   * ({@code committed}: from the earliest).
   */
  private Map<String, Object> consumerConfig(EventFormat format, EventTimeSettings settings) {
    boolean committed = settings.startFrom().equals("committed");
    if (committed && groupId() == null) {
      throw new ConfigurationException(
          "--startFrom: committed resumes a consumer group; name it with group.id in a"
              + " --kafkaProperties file");
    }
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.put(
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, committed ? "earliest" : settings.startFrom());
    config.put(KafkaText.MAX_RECORD_BYTES, String.valueOf(maxRecordBytes));
    // The deserializer parses each value once, for the timestamp policy and the parse step both.
    config.put(KafkaText.EVENT_FORMAT, format);
    return config;
  }

  private @Nullable String groupId() {
    return clientProperties.get(ConsumerConfig.GROUP_ID_CONFIG);
  }

  /**
   * For {@code explain}: a snapshot of the topic ({@link KafkaSnapshot}), the records with a Kafka
   * timestamp in [{@code from}, {@code to}) (either may be null), replayed under the live rule with
   * their timestamps as the clock, and the lines that say what the snapshot is and cannot know.
   */
  public Snapshot snapshot(
      EventFormat format,
      EventTimeSettings settings,
      @Nullable Instant from,
      @Nullable Instant to) {
    settings.requireNoPartitionField("a Kafka topic's records know their partition");
    KafkaSnapshot snapshot =
        KafkaSnapshot.read(bootstrapServers, topic, clientProperties, maxRecordBytes, from, to);
    Replay replay =
        Replay.of(snapshot, format)
            .withMaxOutOfOrderness(settings.maxOutOfOrderness())
            .withMaxFutureSkew(settings.maxFutureSkew())
            .withArrivalClock(settings.idleTimeout());
    return new Snapshot(replay, snapshot.about());
  }

  /** A topic's snapshot as a replay, and what it is and cannot know, a line each. */
  public record Snapshot(Replay replay, List<String> about) {}

  /**
   * The topic read in batches ({@link ReadKafkaInBatches}), and the parse of each record, which the
   * counting step runs as it gathers a batch, so that it can aggregate what the batch's watermark
   * bound proves on time before the shuffle with no step before it ({@link SourceRead}). Each value
   * is parsed once, by the deserializer, for the timestamp policy and this parse both.
   */
  @Override
  public SourceRead read(EventFormat format, EventTimeSettings settings) {
    settings.requireNoPartitionField("a Kafka source reads each partition with its own watermark");
    KafkaIO.Read<byte[], KafkaText> read = kafkaRead(format, settings);
    ParseEvents<KafkaRecord<byte[], KafkaText>> parse =
        ParseEvents.<KafkaRecord<byte[], KafkaText>>withPositions(format, KafkaArrivedLines::of)
            .withMaxFutureSkew(settings.maxFutureSkew());
    return new SourceRead.Batches<>(
        new PTransform<PBegin, PCollection<SourceBatch<KafkaRecord<byte[], KafkaText>>>>() {
          @Override
          public PCollection<SourceBatch<KafkaRecord<byte[], KafkaText>>> expand(PBegin begin) {
            // Each record keeps where it is, so a dead letter or a late record can be found again.
            return begin.apply("ReadKafka", ReadKafkaInBatches.of(read));
          }
        },
        parse);
  }

  /** Every partition of the topic, each record's event time from its value. */
  private KafkaIO.Read<byte[], KafkaText> kafkaRead(
      EventFormat format, EventTimeSettings settings) {
    SerializableFunction<String, @Nullable Instant> eventTimes = format.eventTimes();
    KafkaIO.Read<byte[], KafkaText> read =
        KafkaIO.<byte[], KafkaText>read()
            .withBootstrapServers(bootstrapServers)
            .withTopic(topic)
            .withKeyDeserializer(ByteArrayDeserializer.class)
            .withValueDeserializerAndCoder(KafkaText.KafkaDeserializer.class, KafkaText.Coder.of())
            .withConsumerConfigUpdates(consumerConfig(format, settings))
            .withTimestampPolicyFactory(
                IdleAwareTimestampPolicyFactory.<byte[], KafkaText>byEventTime(
                        record -> {
                          KafkaText value = record.getKV().getValue();
                          if (!value.isText()) {
                            return null;
                          }
                          return value.parsed() != null
                              ? value.parsed().eventTime()
                              : eventTimes.apply(value.text());
                        })
                    .withMaxOutOfOrderness(settings.maxOutOfOrderness())
                    .withIdleTimeout(settings.idleTimeout())
                    .withMaxFutureSkew(settings.maxFutureSkew()));
    // A group's offsets follow what the job has processed: committed when a checkpoint completes
    // (Flink), or a bundle's output is committed (DirectRunner), so a restart with
    // --startFrom=committed resumes there.
    return groupId() == null ? read : read.commitOffsetsInFinalize();
  }
}
