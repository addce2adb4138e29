package dev.tidemark.transforms.io.kafka;

import dev.tidemark.transforms.io.kafka.NumberedRecord.NumberedRecordCoder;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes records to a Kafka topic exactly once, in Kafka transactions, for a {@code read_committed}
 * consumer: a job restored from a checkpoint or a savepoint neither loses nor repeats a record of
 * the output it would have written without the failure.
 *
 * <pre>{@code
 * results.apply("WriteResults",
 *     WriteKafkaInTransactions.<String, String>to("broker:9092", "results")
 *         .withSerializers(StringSerializer.class, StringSerializer.class)
 *         .withClientConfig(securityProperties)
 *         .withShards(4)
 *         .withTransactionalIdPrefix("orders-job-results"));
 * }</pre>
 *
 * <p>How: records are spread over shards (by key, or by value where the key is null). Each shard is
 * numbered in a stateful step ({@link NumberPerShardFn}), then written by one transactional
 * producer, {@code PREFIX-SHARD}, in a step that requires stable input: the runner hands it records
 * only once the checkpoint that holds them has completed. Each transaction commits, with its
 * records, a marker saying which numbers are in Kafka; a retried attempt skips the records the
 * marker names, and only those (see {@link WriteInTransactionsFn}, {@link ShardProducer} and {@link
 * CommittedNumbers}).
 *
 * <p>What it needs and costs:
 *
 * <ul>
 *   <li>A runner that supports {@code @RequiresStableInput}. The FlinkRunner does with
 *       checkpointing on in {@code EXACTLY_ONCE} mode, and refuses the pipeline otherwise; it holds
 *       the records until the checkpoint that took them in completes, so they appear one checkpoint
 *       interval later than with an at-least-once sink. For a job that ends by itself, set {@code
 *       --enableStableInputDrain} so its last records are written as it ends. Set {@code
 *       --numConcurrentCheckpoints=2}: the runner keeps the records in one buffer more than the
 *       checkpoints Flink may run at once, and with its default of one, a restored job hands this
 *       step the records of its second checkpoint when its first completes (the case below, after
 *       every restore). Flink runs a second checkpoint beside the first only when the first takes
 *       longer than the interval.
 *   <li>A transactional id prefix that no other job writing to the cluster uses: a second writer
 *       with the same ids fences the first. The markers are consumer groups named {@code
 *       PREFIX-SHARD}, so a secured cluster must let the job's principal write transactions with
 *       those ids and commit offsets for those groups on partition 0 of the topic.
 *   <li>Consumers that read with {@code isolation.level=read_committed}; others also see the
 *       records of aborted transactions.
 * </ul>
 *
 * <p>What it does not do: a job submitted again without its state (no savepoint) starts a new run,
 * and writes again what it reads again. The markers are offsets of consumer groups without members,
 * which the broker deletes after {@code offsets.retention.minutes} without a commit (7 days by
 * default): a job restored from a savepoint older than that may write the records of the
 * savepoint's last checkpoint again.
 *
 * <p>What it cannot mend: after as many checkpoints in a row as {@code --numConcurrentCheckpoints}
 * that the writing step took part in but that never completed, or whose completion reached the step
 * after a later checkpoint's barrier (a restore counts as one), Beam's FlinkRunner (2.70) hands the
 * step some records before the checkpoint that numbered them has completed. They are written once,
 * as every record is. But if the job then fails before the next checkpoint completes, the restored
 * job numbers its records from the last completed checkpoint again, and may give those numbers to
 * other records than the ones written: one window's row could then be missing and another's
 * doubled. The writing step logs a warning whenever the runner hands it records ahead of their
 * turn, so a run that met this case says so.
 */
public final class WriteKafkaInTransactions<K, V> extends PTransform<PCollection<KV<K, V>>, PDone> {

  private static final long serialVersionUID = 1L;

  private final String topic;
  private final TreeMap<String, Object> clientConfig;
  private final TreeMap<String, Object> serializers;
  private final int shards;
  private final String transactionalIdPrefix;

  private WriteKafkaInTransactions(
      String topic,
      Map<String, Object> clientConfig,
      Map<String, Object> serializers,
      int shards,
      String transactionalIdPrefix) {
    this.topic = topic;
    this.clientConfig = new TreeMap<>(clientConfig);
    this.serializers = new TreeMap<>(serializers);
    this.shards = shards;
    this.transactionalIdPrefix = transactionalIdPrefix;
  }

  /**
   * Writes to {@code topic} on {@code bootstrapServers}, in one shard, with transactional ids
   * {@code tidemark-TOPIC-SHARD}; set the serializers with {@link #withSerializers}.
   */
  public static <K, V> WriteKafkaInTransactions<K, V> to(String bootstrapServers, String topic) {
    return new WriteKafkaInTransactions<>(
        topic,
        Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
        Map.of(),
        1,
        "tidemark-" + topic);
  }

  /** Serializes keys and values with these Kafka serializers. */
  public WriteKafkaInTransactions<K, V> withSerializers(
      Class<? extends Serializer<? super K>> keySerializer,
      Class<? extends Serializer<? super V>> valueSerializer) {
    return new WriteKafkaInTransactions<>(
        topic,
        clientConfig,
        Map.of(
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, keySerializer.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, valueSerializer.getName()),
        shards,
        transactionalIdPrefix);
  }

  /**
   * Adds Kafka client properties (security, timeouts) for the producers and for reading the
   * markers; {@code bootstrap.servers} stays the one given to {@link #to}.
   */
  public WriteKafkaInTransactions<K, V> withClientConfig(Map<String, ?> properties) {
    TreeMap<String, Object> config = new TreeMap<>(properties);
    config.put(
        CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
        clientConfig.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    return new WriteKafkaInTransactions<>(
        topic, config, serializers, shards, transactionalIdPrefix);
  }

  /** Writes with {@code shards} producers, each with a transaction of its own per checkpoint. */
  public WriteKafkaInTransactions<K, V> withShards(int shards) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be at least 1, not " + shards);
    }
    return new WriteKafkaInTransactions<>(
        topic, clientConfig, serializers, shards, transactionalIdPrefix);
  }

  /**
   * Names the producers {@code prefix-SHARD}; unique to this write among all the cluster's jobs.
   */
  public WriteKafkaInTransactions<K, V> withTransactionalIdPrefix(String prefix) {
    return new WriteKafkaInTransactions<>(topic, clientConfig, serializers, shards, prefix);
  }

  @Override
  public PDone expand(PCollection<KV<K, V>> records) {
    if (serializers.isEmpty()) {
      throw new IllegalStateException("WriteKafkaInTransactions: set withSerializers(...)");
    }
    int shardCount = shards;
    records
        // The shard's numbering is one sequence whatever the records' windows.
        .apply("IntoOneWindow", Window.<KV<K, V>>into(new GlobalWindows()))
        .apply(
            "AssignShards",
            WithKeys.<Integer, KV<K, V>>of(
                    record ->
                        Math.floorMod(
                            Objects.hashCode(
                                record.getKey() != null ? record.getKey() : record.getValue()),
                            shardCount))
                .withKeyType(TypeDescriptors.integers()))
        .setCoder(KvCoder.of(VarIntCoder.of(), records.getCoder()))
        .apply("NumberPerShard", ParDo.of(new NumberPerShardFn<K, V>(UUID.randomUUID().toString())))
        .setCoder(KvCoder.of(VarIntCoder.of(), NumberedRecordCoder.of(recordCoder(records))))
        .apply(
            "WriteInTransactions",
            ParDo.of(
                new WriteInTransactionsFn<K, V>(
                    clientConfig, serializers, topic, transactionalIdPrefix)));
    return PDone.in(records.getPipeline());
  }

  private static <K, V> KvCoder<K, V> recordCoder(PCollection<KV<K, V>> records) {
    if (!(records.getCoder() instanceof KvCoder)) {
      throw new IllegalArgumentException(
          "WriteKafkaInTransactions needs a KvCoder on its input, not " + records.getCoder());
    }
    return (KvCoder<K, V>) records.getCoder();
  }
}
