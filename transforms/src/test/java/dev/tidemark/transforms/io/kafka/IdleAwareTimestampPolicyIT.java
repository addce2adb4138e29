package dev.tidemark.transforms.io.kafka;

import static dev.tidemark.transforms.testing.WindowCounts.S1_LINES;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import dev.tidemark.transforms.testing.SuiteOrder;
import dev.tidemark.transforms.testing.WindowCounts;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.kafka.CustomTimestampPolicyWithLimitedDelay;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.TimestampPolicyFactory;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.PCollection;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.joda.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Scenario S4 against a real broker: a 10-partition topic where every record went to partition 0,
 * read by KafkaIO on the DirectRunner. With tidemark's policy the windows fire; with Beam's own
 * {@code CustomTimestampPolicyWithLimitedDelay} on the same data they do not (Beam issue #20908),
 * which shows the first test is not passing by accident. The two run side by side, each on its own
 * topic: the second only waits, for longer than the first needs.
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ExtendWith(SharedKafkaBroker.class)
@Execution(ExecutionMode.CONCURRENT)
@Order(SuiteOrder.LONGEST_FIRST)
class IdleAwareTimestampPolicyIT {

  private static final Duration WINDOW = Duration.standardSeconds(5);
  private static final Duration OUT_OF_ORDERNESS = Duration.standardSeconds(1);
  private static final Duration IDLE_TIMEOUT = Duration.standardSeconds(3);
  private static final int PARTITIONS = 10;

  private static KafkaBroker broker;

  @BeforeAll
  static void shareBroker(KafkaBroker shared) {
    broker = shared;
  }

  @Test
  void tenPartitionsWithDataInOneFireEveryWindow() throws Exception {
    String topic = "s4-tidemark";
    broker.createTopic(topic, PARTITIONS);
    broker.send(topic, 0, S1_LINES);
    Collected windows = new Collected();
    Pipeline pipeline =
        countPerWindow(
            topic,
            IdleAwareTimestampPolicyFactory.<String, String>byEventTime(
                    record ->
                        CsvEventFormat.keyAndTime().eventTimes().apply(record.getKV().getValue()))
                .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
                .withIdleTimeout(IDLE_TIMEOUT),
            windows,
            new Collected());

    PipelineResult running = pipeline.run();
    try {
      // (1) The nine empty partitions stop holding once they have been empty for the idle
      // timeout; partition 0's own watermark closes the first three windows; its idleness then
      // closes the fourth, while the topic stays open.
      List<String> expected = WindowCounts.expected(S1_LINES, WINDOW);
      assertThat(windows.awaitUntil(r -> r.size() >= expected.size(), 120_000), equalTo(true));
      assertThat(windows.snapshot(), containsInAnyOrder(expected.toArray(String[]::new)));
      assertThat(running.getState(), equalTo(PipelineResult.State.RUNNING));
    } finally {
      Runners.cancel(running);
    }
  }

  @Test
  void beamsOwnPolicyStallsOnTheSameTopic() throws Exception {
    String topic = "s4-beam";
    broker.createTopic(topic, PARTITIONS);
    broker.send(topic, 0, S1_LINES);
    Collected windows = new Collected();
    TimestampPolicyFactory<String, String> beams =
        (partition, previousWatermark) ->
            new CustomTimestampPolicyWithLimitedDelay<>(
                record -> CsvEventFormat.keyAndTime().eventTimes().apply(record.getKV().getValue()),
                OUT_OF_ORDERNESS,
                previousWatermark);
    Collected read = new Collected();
    Pipeline pipeline = countPerWindow(topic, beams, windows, read);

    PipelineResult running = pipeline.run();
    try {
      // (1) The job reads every record.
      assertThat(read.awaitUntil(r -> r.size() >= S1_LINES.size(), 120_000), equalTo(true));
      // (2) Then, for three idle timeouts, when tidemark's policy above closes every window
      // within one (and the watermark's cadence): not a single window, since the nine empty
      // partitions hold Beam's watermark at the minimum.
      windows.awaitUntil(r -> !r.isEmpty(), 3 * IDLE_TIMEOUT.getMillis());
      assertThat(windows.snapshot(), empty());
    } finally {
      Runners.cancel(running);
    }
  }

  /**
   * Reads {@code topic} with {@code policy}: the values as they are read into {@code read}, and the
   * counts per window into {@code windows}.
   */
  private static Pipeline countPerWindow(
      String topic,
      TimestampPolicyFactory<String, String> policy,
      Collected windows,
      Collected read) {
    Pipeline pipeline = Pipeline.create(Runners.streaming("DirectRunner", 4));
    PCollection<String> values =
        pipeline
            .apply(
                "ReadKafka",
                KafkaIO.<String, String>read()
                    .withBootstrapServers(broker.bootstrapServers())
                    .withTopic(topic)
                    .withKeyDeserializer(StringDeserializer.class)
                    .withValueDeserializer(StringDeserializer.class)
                    .withConsumerConfigUpdates(
                        Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))
                    .withTimestampPolicyFactory(policy)
                    .withoutMetadata())
            .apply("Values", Values.create());
    values.apply("CollectRead", read.sink());
    values.apply("CountPerWindow", WindowCounts.of(WINDOW)).apply(windows.sink());
    return pipeline;
  }
}
