package dev.tidemark.transforms.io.kafka;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.io.kafka.DeserializerProvider;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecordCoder;
import org.apache.beam.sdk.io.kafka.TimestampPolicyFactory;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The records of a {@link KafkaIO.Read}'s topics, read by tidemark's own reader ({@link
 * KafkaTopicReader}) with the read's configuration: its consumer properties and consumer factory,
 * deserializers, coders, timestamp policy factory and {@code commitOffsetsInFinalize}. Each split
 * reads some of the partitions, assigned round robin in (topic, partition) order, as KafkaIO
 * assigns them.
 *
 * <p>Written by hand because KafkaIO's reader costs more than the read itself: it builds metric
 * names as strings and updates Beam counters and distributions for every record, and hands records
 * from a thread of its own to the reader's. Its source also records lineage while splitting, which
 * the FlinkRunner does outside any metrics scope: Beam logs that as an error with a stack trace in
 * every run.
 *
 * <p>What KafkaIO offers beyond reading topics or partitions from their offsets (topic patterns,
 * start and stop times, bounded reads, dynamic partitions, redistribution, a watermark function,
 * offset deduplication) is refused as the source is built, with the option's name.
 */
public final class KafkaTopicSource<K, V> extends UnboundedSource<KafkaRecord<K, V>, KafkaOffsets> {

  private static final long serialVersionUID = 1L;

  private final Map<String, Object> consumerConfig;
  private final List<String> topics;

  /** This split's partitions; empty before the source is split: every partition of the topics. */
  private final List<TopicPartition> partitions;

  private final SerializableFunction<Map<String, Object>, Consumer<byte[], byte[]>> consumers;
  private final DeserializerProvider<K> keys;
  private final DeserializerProvider<V> values;
  private final Coder<K> keyCoder;
  private final Coder<V> valueCoder;
  private final TimestampPolicyFactory<K, V> timestampPolicies;
  private final boolean commitOffsets;

  private KafkaTopicSource(KafkaIO.Read<K, V> read, List<TopicPartition> partitions) {
    this.consumerConfig = new HashMap<>(read.getConsumerConfig());
    this.topics = read.getTopics() == null ? List.of() : List.copyOf(read.getTopics());
    this.partitions = List.copyOf(partitions);
    this.consumers = read.getConsumerFactoryFn();
    this.keys = read.getKeyDeserializerProvider();
    this.values = read.getValueDeserializerProvider();
    CoderRegistry registry = CoderRegistry.createDefault();
    this.keyCoder = read.getKeyCoder() != null ? read.getKeyCoder() : coder(keys, registry);
    this.valueCoder = read.getValueCoder() != null ? read.getValueCoder() : coder(values, registry);
    this.timestampPolicies =
        read.getTimestampPolicyFactory() != null
            ? read.getTimestampPolicyFactory()
            : TimestampPolicyFactory.withProcessingTime();
    this.commitOffsets = read.isCommitOffsetsInFinalizeEnabled();
  }

  private KafkaTopicSource(KafkaTopicSource<K, V> source, List<TopicPartition> partitions) {
    this.consumerConfig = source.consumerConfig;
    this.topics = source.topics;
    this.partitions = List.copyOf(partitions);
    this.consumers = source.consumers;
    this.keys = source.keys;
    this.values = source.values;
    this.keyCoder = source.keyCoder;
    this.valueCoder = source.valueCoder;
    this.timestampPolicies = source.timestampPolicies;
    this.commitOffsets = source.commitOffsets;
  }

  /** The source of {@code read}; refuses what it does not support, naming the option. */
  public static <K, V> KafkaTopicSource<K, V> of(KafkaIO.Read<K, V> read) {
    refuse(read.getTopicPattern() != null, "withTopicPattern");
    refuse(read.getStartReadTime() != null, "withStartReadTime");
    refuse(read.getStopReadTime() != null, "withStopReadTime");
    refuse(read.getMaxNumRecords() != Long.MAX_VALUE, "withMaxNumRecords");
    refuse(read.getMaxReadTime() != null, "withMaxReadTime");
    refuse(read.isDynamicRead(), "withDynamicRead");
    refuse(read.isRedistributed(), "withRedistribute");
    refuse(read.getWatermarkFn() != null, "withWatermarkFn");
    refuse(read.getCheckStopReadingFn() != null, "withCheckStopReadingFn");
    refuse(Boolean.TRUE.equals(read.getOffsetDeduplication()), "withOffsetDeduplication");
    boolean noTopics = read.getTopics() == null || read.getTopics().isEmpty();
    boolean noPartitions = read.getTopicPartitions() == null || read.getTopicPartitions().isEmpty();
    if (noTopics == noPartitions) {
      throw new IllegalArgumentException(
          "a Kafka read names its topics (withTopic, withTopics) or its partitions"
              + " (withTopicPartitions), one of the two");
    }
    return new KafkaTopicSource<>(
        read, noPartitions ? List.of() : sorted(read.getTopicPartitions()));
  }

  private static void refuse(boolean used, String option) {
    if (used) {
      throw new IllegalArgumentException(
          "tidemark's Kafka reader reads topics or partitions from their offsets; KafkaIO's "
              + option
              + " is not supported");
    }
  }

  /**
   * At most {@code desiredNumSplits} splits, each reading some of the partitions: partition i of
   * the (topic, partition) order goes to split i modulo the number of splits.
   */
  @Override
  public List<KafkaTopicSource<K, V>> split(int desiredNumSplits, PipelineOptions options) {
    List<TopicPartition> all = partitions.isEmpty() ? partitionsOfTopics() : partitions;
    int splits = Math.max(1, Math.min(desiredNumSplits, all.size()));
    List<List<TopicPartition>> assigned = new ArrayList<>();
    for (int split = 0; split < splits; split++) {
      assigned.add(new ArrayList<>());
    }
    for (int i = 0; i < all.size(); i++) {
      assigned.get(i % splits).add(all.get(i));
    }
    List<KafkaTopicSource<K, V>> sources = new ArrayList<>();
    for (List<TopicPartition> some : assigned) {
      sources.add(new KafkaTopicSource<>(this, some));
    }
    return sources;
  }

  private List<TopicPartition> partitionsOfTopics() {
    List<TopicPartition> all = new ArrayList<>();
    try (Consumer<byte[], byte[]> consumer = consumers.apply(consumerConfig)) {
      for (String topic : topics) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic);
        if (infos == null || infos.isEmpty()) {
          throw new IllegalStateException(
              "Kafka topic " + topic + " has no partitions at " + bootstrapServers());
        }
        infos.forEach(info -> all.add(new TopicPartition(info.topic(), info.partition())));
      }
    }
    return sorted(all);
  }

  private static List<TopicPartition> sorted(List<TopicPartition> partitions) {
    List<TopicPartition> sorted = new ArrayList<>(partitions);
    sorted.sort(
        Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
    return sorted;
  }

  @Override
  public KafkaTopicReader<K, V> createReader(
      PipelineOptions options, @Nullable KafkaOffsets checkpointMark) {
    List<TopicPartition> reading = partitions.isEmpty() ? partitionsOfTopics() : partitions;
    return new KafkaTopicReader<>(this, reading, checkpointMark);
  }

  @Override
  public Coder<KafkaOffsets> getCheckpointMarkCoder() {
    return SerializableCoder.of(KafkaOffsets.class);
  }

  @Override
  public Coder<KafkaRecord<K, V>> getOutputCoder() {
    return KafkaRecordCoder.of(keyCoder, valueCoder);
  }

  Map<String, Object> consumerConfig() {
    return consumerConfig;
  }

  /**
   * The configuration of the consumer that measures end offsets: the reader's, without its group,
   * so that it never commits or joins (Kafka refuses auto-commit without a group).
   */
  Map<String, Object> probeConfig() {
    Map<String, Object> config = new HashMap<>(consumerConfig);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    return config;
  }

  SerializableFunction<Map<String, Object>, Consumer<byte[], byte[]>> consumers() {
    return consumers;
  }

  DeserializerProvider<K> keys() {
    return keys;
  }

  DeserializerProvider<V> values() {
    return values;
  }

  TimestampPolicyFactory<K, V> timestampPolicies() {
    return timestampPolicies;
  }

  boolean commitsOffsets() {
    return commitOffsets;
  }

  private String bootstrapServers() {
    return String.valueOf(consumerConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
  }

  private static <T> Coder<T> coder(DeserializerProvider<T> provider, CoderRegistry registry) {
    try {
      return provider.getCoder(registry);
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() instanceof CannotProvideCoderException ? e.getCause() : e;
      throw new IllegalArgumentException(
          "no coder for a Kafka deserializer's type; give KafkaIO one with"
              + " withKeyDeserializerAndCoder or withValueDeserializerAndCoder",
          cause);
    }
  }
}
