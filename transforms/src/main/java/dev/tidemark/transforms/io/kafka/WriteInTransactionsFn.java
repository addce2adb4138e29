package dev.tidemark.transforms.io.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each shard's numbered records in Kafka transactions, skipping those an earlier attempt
 * already committed: the stable-input step of {@link WriteKafkaInTransactions}.
 *
 * <p>Why a record is written once: the input is stable ({@link DoFn.RequiresStableInput}), so a
 * record reaches this step only once the checkpoint that holds it, with its number, has completed;
 * a retried attempt sees it again with the same number, and {@link ShardProducer} knows which
 * numbers of the shard are in Kafka, in whatever order the runner handed them over ({@link
 * CommittedNumbers}). A transaction is committed when the bundle ends: on Flink, once per completed
 * checkpoint. The step keeps no state of its own: a stateful step would drop the records it is
 * handed after the input's end (their window, the global one, has expired by then), while these are
 * the last results of a replay.
 */
final class WriteInTransactionsFn<K, V> extends DoFn<KV<Integer, NumberedRecord<K, V>>, Void> {

  private static final long serialVersionUID = 1L;

  private static final Logger LOG = LoggerFactory.getLogger(WriteInTransactionsFn.class);

  private final TreeMap<String, Object> clientConfig;
  private final TreeMap<String, Object> producerConfig;
  private final String topic;
  private final String transactionalIdPrefix;

  private transient Map<Integer, ShardProducer<K, V>> producers;

  /**
   * Records of this bundle that an earlier attempt had committed. Logged, not counted in a Beam
   * metric: Flink hands this step its records outside the scope its metrics are collected in.
   */
  private transient long skipped;

  WriteInTransactionsFn(
      Map<String, Object> clientConfig,
      Map<String, Object> producerConfig,
      String topic,
      String transactionalIdPrefix) {
    this.clientConfig = new TreeMap<>(clientConfig);
    this.producerConfig = new TreeMap<>(producerConfig);
    this.topic = topic;
    this.transactionalIdPrefix = transactionalIdPrefix;
  }

  @Setup
  public void setup() {
    producers = new HashMap<>();
  }

  @RequiresStableInput
  @ProcessElement
  public void processElement(@Element KV<Integer, NumberedRecord<K, V>> element) {
    NumberedRecord<K, V> numbered = element.getValue();
    try {
      ShardProducer<K, V> shard = producerOf(element.getKey(), numbered.runId());
      if (shard.committed(numbered.sequence())) {
        skipped++;
        return;
      }
      shard.send(numbered.sequence(), numbered.record().getKey(), numbered.record().getValue());
    } catch (RuntimeException e) {
      closeProducers();
      throw e;
    }
  }

  @FinishBundle
  public void finishBundle() {
    try {
      for (Map.Entry<Integer, ShardProducer<K, V>> shard : producers.entrySet()) {
        shard.getValue().commit();
        long early = shard.getValue().takeSentOutOfOrder();
        if (early > 0) {
          // Written exactly once; but see WriteKafkaInTransactions on what a failure now could do.
          LOG.warn(
              "{}-{}: the runner handed over {} records before records numbered below them, after a"
                  + " checkpoint that did not complete or whose completion came late; they are"
                  + " written once, but if the job fails before its next checkpoint completes, the"
                  + " restored job may number other records the same (see WriteKafkaInTransactions)",
              transactionalIdPrefix,
              shard.getKey(),
              early);
        }
      }
      if (skipped > 0) {
        LOG.info(
            "{}: skipped {} records that an earlier attempt had committed to {}",
            transactionalIdPrefix,
            skipped,
            topic);
        skipped = 0;
      }
    } catch (RuntimeException e) {
      // A producer that failed mid-transaction cannot begin another; the retry opens new ones.
      closeProducers();
      throw e;
    }
  }

  @Teardown
  public void teardown() {
    if (producers != null) {
      closeProducers();
    }
  }

  private ShardProducer<K, V> producerOf(int shard, String runId) {
    ShardProducer<K, V> producer = producers.get(shard);
    if (producer == null) {
      producer =
          ShardProducer.open(
              clientConfig, producerConfig, transactionalIdPrefix + "-" + shard, topic, runId);
      producers.put(shard, producer);
    }
    return producer;
  }

  private void closeProducers() {
    producers.values().forEach(ShardProducer::close);
    producers.clear();
  }
}
