package dev.tidemark.transforms.io.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shard of {@link WriteKafkaInTransactions}: a transactional producer with a transactional id
 * of its own, and which of the shard's numbered records are already in Kafka.
 *
 * <p>Each transaction also commits a marker, in the same transaction as its records: the offset of
 * partition 0 of the topic for a consumer group named after the transactional id, saying which
 * numbers are in Kafka with the run id ({@link CommittedNumbers}: every number below the offset,
 * and ranges above it in the metadata, since records may come out of number order). Kafka makes the
 * marker visible exactly when the records are, so on opening, after {@code initTransactions} has
 * fenced any earlier producer of the shard and aborted its open transaction, the marker says which
 * records an earlier attempt committed. A marker with another run id is from another run of the job
 * (one that did not restore this one's state), and is not ours to skip by.
 *
 * <p>Not thread-safe: one {@code DoFn} instance uses it.
 */
final class ShardProducer<K, V> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ShardProducer.class);

  private static final Duration MARKER_READ_TIMEOUT = Duration.ofSeconds(60);

  private final Producer<K, V> producer;
  private final String topic;
  private final TopicPartition marker;
  private final ConsumerGroupMetadata markerGroup;

  /**
   * The numbers in Kafka, and those sent in the open transaction: after a failed send or commit the
   * producer is closed, and the next one reads the marker again.
   */
  private CommittedNumbers written;

  private boolean transactionOpen;

  /** Records sent since {@link #takeSentOutOfOrder} with a number above one not yet sent. */
  private long sentOutOfOrder;

  private ShardProducer(
      Producer<K, V> producer, String transactionalId, String topic, String runId) {
    this.producer = producer;
    this.topic = topic;
    this.marker = new TopicPartition(topic, 0);
    this.markerGroup = new ConsumerGroupMetadata(transactionalId);
    this.written = CommittedNumbers.none(runId);
  }

  /**
   * Opens the shard's producer: {@code clientConfig} (servers, security) with the serializers in
   * {@code producerConfig}, as {@code transactionalId}, fencing an earlier producer of that id, and
   * reads which of {@code runId}'s records are committed.
   */
  static <K, V> ShardProducer<K, V> open(
      Map<String, Object> clientConfig,
      Map<String, Object> producerConfig,
      String transactionalId,
      String topic,
      String runId) {
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.putAll(producerConfig);
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    ShardProducer<K, V> shard =
        new ShardProducer<>(new KafkaProducer<>(config), transactionalId, topic, runId);
    try {
      shard.producer.initTransactions();
      shard.written = CommittedNumbers.of(runId, shard.readMarker(clientConfig));
      if (!shard.written.isEmpty()) {
        LOG.info(
            "{}: records of run {} numbered {} are in {} already",
            transactionalId,
            runId,
            shard.written,
            topic);
      }
      return shard;
    } catch (RuntimeException e) {
      shard.close();
      throw e;
    }
  }

  /**
   * Whether the record numbered {@code sequence} is not to be sent: an earlier attempt committed
   * it, or this one has sent it already.
   */
  boolean committed(long sequence) {
    return written.contains(sequence);
  }

  /** Sends the record numbered {@code sequence} in the open transaction, opening one if none is. */
  void send(long sequence, K key, V value) {
    if (!transactionOpen) {
      producer.beginTransaction();
      transactionOpen = true;
    }
    // A send that fails is reported by commitTransaction, which then refuses to commit.
    producer.send(new ProducerRecord<>(topic, key, value));
    if (sequence != written.below()) {
      sentOutOfOrder++;
    }
    written.add(sequence);
  }

  /**
   * How many records were sent, since the last call, while a record numbered below them had not
   * been: the runner handed them over before their turn ({@link CommittedNumbers}).
   */
  long takeSentOutOfOrder() {
    long taken = sentOutOfOrder;
    sentOutOfOrder = 0;
    return taken;
  }

  /** Commits the open transaction with its marker; nothing when none is open. */
  void commit() {
    if (!transactionOpen) {
      return;
    }
    producer.sendOffsetsToTransaction(Map.of(marker, written.marker()), markerGroup);
    producer.commitTransaction();
    transactionOpen = false;
  }

  /** Closes the producer; an open transaction is aborted by the broker, or by the next producer. */
  @Override
  public void close() {
    producer.close(Duration.ofSeconds(10));
  }

  /** The shard's marker as committed last; null if none. */
  private @Nullable OffsetAndMetadata readMarker(Map<String, Object> clientConfig) {
    try (Admin admin = Admin.create(clientConfig)) {
      return admin
          .listConsumerGroupOffsets(
              markerGroup.groupId(), new ListConsumerGroupOffsetsOptions().requireStable(true))
          .partitionsToOffsetAndMetadata()
          .get(MARKER_READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .get(marker);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading " + markerGroup.groupId(), e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "cannot read the committed marker of consumer group "
              + markerGroup.groupId()
              + " on "
              + marker
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
