package dev.tidemark.transforms.io.kafka;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.TimestampPolicyFactory;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.joda.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * tidemark's own Kafka reader against a real broker: how it splits a topic's partitions, that it
 * reads every record once with its policy's timestamp, that a reader restored from a checkpoint
 * mark goes on after it, and that a finalized mark commits its offsets to the group.
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ExtendWith(SharedKafkaBroker.class)
@Execution(ExecutionMode.CONCURRENT)
class KafkaTopicSourceIT {

  private static final PipelineOptions OPTIONS = PipelineOptionsFactory.create();

  private static KafkaBroker broker;

  @BeforeAll
  static void shareBroker(KafkaBroker shared) {
    broker = shared;
  }

  @Test
  void partitionsAreSplitRoundRobinAndEveryRecordIsReadOnceInOffsetOrder() throws Exception {
    String topic = "own-reader-split";
    broker.createTopic(topic, 3);
    for (int partition = 0; partition < 3; partition++) {
      broker.send(topic, partition, values(partition * 100, 10));
    }
    List<KafkaTopicSource<String, String>> splits =
        KafkaTopicSource.of(read(topic)).split(2, OPTIONS);

    assertThat(splits.size(), equalTo(2));
    List<String> read = new ArrayList<>();
    // Partitions 0 and 2 go to the first split, 1 to the second.
    List<Integer> sizes = List.of(20, 10);
    for (KafkaTopicSource<String, String> split : splits) {
      int index = splits.indexOf(split);
      try (KafkaTopicReader<String, String> reader = split.createReader(OPTIONS, null)) {
        List<KafkaRecord<String, String>> records = readAtLeast(reader, sizes.get(index));
        assertThat("nothing more", reader.advance(), equalTo(false));
        records.forEach(record -> read.add(record.getKV().getValue()));
        Map<Integer, Long> nextOffset = new HashMap<>();
        for (KafkaRecord<String, String> record : records) {
          assertThat(record.getPartition() % 2, equalTo(index));
          long expectedOffset = nextOffset.getOrDefault(record.getPartition(), 0L);
          assertThat(record.toString(), record.getOffset(), equalTo(expectedOffset));
          nextOffset.put(record.getPartition(), expectedOffset + 1);
        }
      }
    }
    List<String> expected = new ArrayList<>();
    for (int partition : List.of(0, 2, 1)) {
      expected.addAll(values(partition * 100, 10));
    }
    assertThat(sorted(read), equalTo(sorted(expected)));
  }

  @Test
  void eachRecordIsStampedByItsPartitionsPolicy() throws Exception {
    String topic = "own-reader-stamps";
    broker.createTopic(topic, 1);
    broker.send(topic, 0, values(1_000, 5));
    KafkaTopicSource<String, String> source = KafkaTopicSource.of(read(topic));
    try (KafkaTopicReader<String, String> reader = source.createReader(OPTIONS, null)) {
      List<Instant> stamps = new ArrayList<>();
      for (boolean more = reader.start(); stamps.size() < 5; more = reader.advance()) {
        if (more) {
          stamps.add(reader.getCurrentTimestamp());
        }
      }
      assertThat(stamps, equalTo(IntStream.range(1_000, 1_005).mapToObj(Instant::new).toList()));
    }
  }

  @Test
  void aReaderRestoredFromACheckpointMarkGoesOnAfterIt() throws Exception {
    String topic = "own-reader-restore";
    broker.createTopic(topic, 1);
    broker.send(topic, 0, values(0, 10));
    KafkaTopicSource<String, String> source = KafkaTopicSource.of(read(topic));
    Coder<KafkaOffsets> marks = source.getCheckpointMarkCoder();
    byte[] mark;
    try (KafkaTopicReader<String, String> first = source.createReader(OPTIONS, null)) {
      assertThat(values(readAtLeast(first, 4)), equalTo(values(0, 4)));
      mark = CoderUtils.encodeToByteArray(marks, first.getCheckpointMark());
    }
    KafkaOffsets restored = CoderUtils.decodeFromByteArray(marks, mark);
    try (KafkaTopicReader<String, String> second = source.createReader(OPTIONS, restored)) {
      assertThat(values(readAtLeast(second, 6)), equalTo(values(4, 6)));
    }
  }

  @Test
  void aFinalizedMarkCommitsItsOffsetsToTheGroup() throws Exception {
    String topic = "own-reader-commit";
    String group = "own-reader-commit-group";
    broker.createTopic(topic, 1);
    broker.send(topic, 0, values(0, 10));
    KafkaTopicSource<String, String> source =
        KafkaTopicSource.of(read(topic, group).commitOffsetsInFinalize());
    KafkaOffsets mark;
    try (KafkaTopicReader<String, String> reader = source.createReader(OPTIONS, null)) {
      readAtLeast(reader, 7);
      mark = reader.getCheckpointMark();
      mark.finalizeCheckpoint();
      // Committed on the reader's own thread: by the next read, or as it closes.
      reader.advance();
    }
    assertThat(broker.committedOffset(group, new TopicPartition(topic, 0)), equalTo(7L));
    assertThat(mark.commitsWhenFinalized(), equalTo(true));
    // A copy of the mark, as a runner decodes it, commits nothing: only a restore from it does.
    KafkaOffsets copy = CoderUtils.clone(source.getCheckpointMarkCoder(), mark);
    assertThat(copy, equalTo(mark));
    assertThat(copy.commitsWhenFinalized(), equalTo(false));
  }

  @Test
  void onTheDirectRunnerTheGroupFollowsTheReadAsBundlesComplete() throws Exception {
    String topic = "own-reader-direct";
    String group = "own-reader-direct-group";
    broker.createTopic(topic, 2);
    broker.send(topic, 0, values(0, 10));
    broker.send(topic, 1, values(100, 10));
    Pipeline pipeline = Pipeline.create(Runners.streaming("DirectRunner", 2));
    pipeline.apply(ReadKafkaInBatches.of(read(topic, group).commitOffsetsInFinalize()));
    PipelineResult running = pipeline.run();
    try {
      // The DirectRunner finalizes a read's mark as it reads again: records keep coming, one a
      // partition every 200 ms, until the group has committed past the first ten of each.
      int next = 10;
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (Math.min(
                  broker.committedOffset(group, new TopicPartition(topic, 0)),
                  broker.committedOffset(group, new TopicPartition(topic, 1)))
              < 10
          && System.nanoTime() < deadline) {
        broker.send(topic, 0, values(next, 1));
        broker.send(topic, 1, values(100 + next, 1));
        next++;
        Thread.sleep(200);
      }
      assertThat(
          broker.committedOffset(group, new TopicPartition(topic, 0)), greaterThanOrEqualTo(10L));
      assertThat(
          broker.committedOffset(group, new TopicPartition(topic, 1)), greaterThanOrEqualTo(10L));
    } finally {
      Runners.cancel(running);
    }
  }

  @Test
  void aGroupsOwnAutoCommitWorks() throws Exception {
    String topic = "own-reader-auto-commit";
    String group = "own-reader-auto-commit-group";
    broker.createTopic(topic, 1);
    broker.send(topic, 0, values(0, 10));
    // Auto-commit needs a group; the consumer measuring end offsets has none, and must not fail.
    KafkaTopicSource<String, String> source =
        KafkaTopicSource.of(
            read(topic, group)
                .withConsumerConfigUpdates(
                    Map.of(
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true",
                        ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, "200")));
    TopicPartition partition = new TopicPartition(topic, 0);
    try (KafkaTopicReader<String, String> reader = source.createReader(OPTIONS, null)) {
      readAtLeast(reader, 10);
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (broker.committedOffset(group, partition) < 10 && System.nanoTime() < deadline) {
        // The consumer commits as it polls: the reader reads on.
        reader.advance();
      }
      assertThat(broker.committedOffset(group, partition), equalTo(10L));
    }
  }

  @Test
  void kafkaIoOptionsItDoesNotSupportAreRefusedByName() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                KafkaTopicSource.of(
                    KafkaIO.<String, String>read()
                        .withBootstrapServers(broker.bootstrapServers())
                        .withTopicPattern("own-.*")
                        .withKeyDeserializer(StringDeserializer.class)
                        .withValueDeserializer(StringDeserializer.class)));
    assertThat(refused.getMessage(), containsString("withTopicPattern"));
  }

  /** {@link #read} as consumer group {@code group}. */
  private static KafkaIO.Read<String, String> read(String topic, String group) {
    return read(topic).withConsumerConfigUpdates(Map.of(ConsumerConfig.GROUP_ID_CONFIG, group));
  }

  /** A topic read from its earliest offsets, each record stamped with the number it holds. */
  private static KafkaIO.Read<String, String> read(String topic) {
    return KafkaIO.<String, String>read()
        .withBootstrapServers(broker.bootstrapServers())
        .withTopic(topic)
        .withKeyDeserializer(StringDeserializer.class)
        .withValueDeserializer(StringDeserializer.class)
        .withConsumerConfigUpdates(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))
        .withTimestampPolicyFactory(
            TimestampPolicyFactory.withTimestampFn(
                record -> new Instant(Long.parseLong(record.getKV().getValue()))));
  }

  /** Starts {@code reader} and reads {@code count} records, reading again while none is at hand. */
  private static List<KafkaRecord<String, String>> readAtLeast(
      KafkaTopicReader<String, String> reader, int count) throws Exception {
    List<KafkaRecord<String, String>> records = new ArrayList<>();
    boolean more = reader.start();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (records.size() < count && System.nanoTime() < deadline) {
      if (more) {
        records.add(reader.getCurrent());
      }
      if (records.size() < count) {
        more = reader.advance();
      }
    }
    return records;
  }

  private static List<String> values(int from, int count) {
    return IntStream.range(from, from + count).mapToObj(String::valueOf).toList();
  }

  private static List<String> values(List<KafkaRecord<String, String>> records) {
    return records.stream().map(record -> record.getKV().getValue()).toList();
  }

  private static List<String> sorted(List<String> values) {
    return values.stream().sorted().toList();
  }
}
