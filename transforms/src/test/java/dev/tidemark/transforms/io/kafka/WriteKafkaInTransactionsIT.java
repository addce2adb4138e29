package dev.tidemark.transforms.io.kafka;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.joda.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Exactly-once writes to a real broker, as a {@code read_committed} consumer sees them: a shard's
 * retried attempt skips what an earlier one committed, and a producer left behind by a failure can
 * neither commit nor leave its records visible; and the whole transform on embedded Flink with
 * checkpoints. (A TaskManager killed mid-stream is {@code KafkaOnFlinkClusterIT}'s, in pipelines.)
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ExtendWith(SharedKafkaBroker.class)
class WriteKafkaInTransactionsIT {

  private static final Map<String, Object> SERIALIZERS =
      Map.of(
          ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
          ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());

  private static KafkaBroker broker;

  @BeforeAll
  static void shareBroker(KafkaBroker shared) {
    broker = shared;
  }

  @Test
  void aRetryWritesOnlyWhatTheEarlierAttemptDidNotCommit() throws Exception {
    String topic = "eos-retry";
    broker.createTopic(topic, 1);
    String run = UUID.randomUUID().toString();
    // (1) The first attempt commits records 0 to 4.
    try (ShardProducer<String, String> first = open(topic, run)) {
      writeUnlessCommitted(first, 0, 5);
      first.commit();
    }
    // (2) The retry numbers the same records the same, from the state it restored (0 here), and
    // goes on to 9: it writes only 5 to 9.
    try (ShardProducer<String, String> retry = open(topic, run)) {
      writeUnlessCommitted(retry, 0, 10);
      retry.commit();
    }
    assertThat(broker.readCommitted(topic, 10, Duration.ofSeconds(60)), equalTo(numbered(0, 10)));
  }

  /**
   * Beam's FlinkRunner can hand the writing step a shard's records out of number order (see {@link
   * CommittedNumbers}): records numbered before others that are already written are written too,
   * and a retry skips exactly the records written, wherever they lie.
   */
  @Test
  void recordsHandedOverOutOfOrderAreEachWrittenOnce() throws Exception {
    String topic = "eos-out-of-order";
    broker.createTopic(topic, 1);
    String run = UUID.randomUUID().toString();
    // (1) The first attempt is handed 0 to 4, then 10 to 14, each in a transaction of its own,
    // and dies before it is handed 5 to 9.
    try (ShardProducer<String, String> first = open(topic, run)) {
      writeUnlessCommitted(first, 0, 5);
      first.commit();
      writeUnlessCommitted(first, 10, 15);
      first.commit();
      assertThat(first.takeSentOutOfOrder(), equalTo(5L));
    }
    // (2) The retry is handed everything from 0 to 19 again: it writes 5 to 9 and 15 to 19 only.
    try (ShardProducer<String, String> retry = open(topic, run)) {
      assertThat(retry.committed(4), equalTo(true));
      assertThat(retry.committed(5), equalTo(false));
      assertThat(retry.committed(10), equalTo(true));
      writeUnlessCommitted(retry, 10, 20);
      retry.commit();
      // (3) And 5 to 9 last, after records numbered above them were written.
      writeUnlessCommitted(retry, 0, 10);
      retry.commit();
      // 15 to 19 came before 5 to 9; 5 to 9 then came in their turn.
      assertThat(retry.takeSentOutOfOrder(), equalTo(5L));
    }
    assertThat(
        broker.readCommitted(topic, 20, Duration.ofSeconds(60)),
        containsInAnyOrder(numbered(0, 20).toArray()));
  }

  @Test
  void aProducerLeftBehindByAFailureIsFencedAndItsOpenTransactionAborted() throws Exception {
    String topic = "eos-zombie";
    broker.createTopic(topic, 1);
    String run = UUID.randomUUID().toString();
    ShardProducer<String, String> zombie = open(topic, run);
    try {
      // (1) An attempt sends 0 to 2 and dies before committing.
      for (int i = 0; i < 3; i++) {
        zombie.send(i, "k", "r" + i);
      }
      // (2) Its retry opens the same shard: nothing is committed, so it writes 0 to 2 itself.
      try (ShardProducer<String, String> retry = open(topic, run)) {
        assertThat(retry.committed(0), equalTo(false));
        for (int i = 0; i < 3; i++) {
          retry.send(i, "k", "r" + i);
        }
        retry.commit();
      }
      // (3) The old attempt, still alive somewhere, can no longer commit.
      assertThrows(KafkaException.class, zombie::commit);
    } finally {
      zombie.close();
    }
    assertThat(broker.readCommitted(topic, 3, Duration.ofSeconds(60)), equalTo(numbered(0, 3)));
  }

  @Test
  void aNewRunDoesNotSkipByAnotherRunsMarker() throws Exception {
    String topic = "eos-new-run";
    broker.createTopic(topic, 1);
    try (ShardProducer<String, String> earlier = open(topic, "run-1")) {
      earlier.send(0, "k", "r0");
      earlier.commit();
    }
    try (ShardProducer<String, String> later = open(topic, "run-2")) {
      assertThat(later.committed(0), equalTo(false));
    }
  }

  @Test
  void onFlinkWithCheckpointsEveryRecordIsWrittenOnce() throws Exception {
    String topic = "eos-flink";
    broker.createTopic(topic, 2);
    Pipeline pipeline = Pipeline.create(onEmbeddedFlink(2));
    List<String> values = numbered(0, 300);
    // Six parts, so that checkpoints come between them.
    TestStream.Builder<KV<String, String>> stream =
        TestStream.create(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of()));
    for (int from = 0; from < values.size(); from += 50) {
      TimestampedValue<KV<String, String>>[] part = new TimestampedValue[50];
      for (int i = 0; i < part.length; i++) {
        String value = values.get(from + i);
        part[i] = TimestampedValue.of(KV.of("key-" + (from + i) % 7, value), new Instant(from + i));
      }
      stream = stream.addElements(part[0], Arrays.copyOfRange(part, 1, part.length));
    }
    pipeline
        .apply("Records", stream.advanceWatermarkToInfinity())
        .apply(
            "WriteInTransactions",
            WriteKafkaInTransactions.<String, String>to(broker.bootstrapServers(), topic)
                .withSerializers(StringSerializer.class, StringSerializer.class)
                .withShards(3)
                .withTransactionalIdPrefix("eos-flink-" + UUID.randomUUID()));
    pipeline.run().waitUntilFinish();
    assertThat(
        broker.readCommitted(topic, values.size(), Duration.ofSeconds(60)),
        containsInAnyOrder(values.toArray()));
  }

  /**
   * On Flink, checkpoints that expire after the writing step took its part in them: Beam then hands
   * the step some of its records out of number order ({@link CommittedNumbers}), and every record
   * is still written, once.
   */
  @Test
  void onFlinkWithCheckpointsThatExpireEveryRecordIsWrittenOnce() throws Exception {
    String topic = "eos-expired-checkpoints";
    broker.createTopic(topic, 1);
    FlinkPipelineOptions options = onEmbeddedFlink(1);
    options.setCheckpointTimeoutMillis(500L);
    options.setFailOnCheckpointingErrors(false);
    Pipeline pipeline = Pipeline.create(options);
    int count = 6000;
    pipeline
        .apply("Numbers", Read.from(new SlowCheckpointNumbers(count, 3, Duration.ofMillis(700))))
        .apply(
            "ToRecords",
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.strings()))
                .via(number -> KV.of("key-" + number % 7, "r" + number)))
        .apply(
            "WriteInTransactions",
            WriteKafkaInTransactions.<String, String>to(broker.bootstrapServers(), topic)
                .withSerializers(StringSerializer.class, StringSerializer.class)
                .withTransactionalIdPrefix("eos-expired-checkpoints-" + UUID.randomUUID()));
    pipeline.run().waitUntilFinish();
    assertThat(
        broker.readCommitted(topic, count, Duration.ofSeconds(60)),
        containsInAnyOrder(numbered(0, count).toArray()));
  }

  /**
   * A streaming run on an embedded Flink cluster at {@code parallelism}, checkpointing every 200
   * ms, whose last records are written as its sources end.
   */
  private static FlinkPipelineOptions onEmbeddedFlink(int parallelism) {
    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setStreaming(true);
    options.setParallelism(parallelism);
    options.setCheckpointingInterval(200L);
    options.setShutdownSourcesAfterIdleMs(0L);
    options.setEnableStableInputDrain(true);
    return options;
  }

  /** Sends {@code from} to {@code to - 1}, each unless the shard says it is in already. */
  private static void writeUnlessCommitted(ShardProducer<String, String> shard, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!shard.committed(i)) {
        shard.send(i, "k", "r" + i);
      }
    }
  }

  private static ShardProducer<String, String> open(String topic, String run) {
    return ShardProducer.open(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
        SERIALIZERS,
        topic + "-writer",
        topic,
        run);
  }

  private static List<String> numbered(int from, int to) {
    List<String> values = new ArrayList<>();
    for (int i = from; i < to; i++) {
      values.add("r" + i);
    }
    return values;
  }
}
