package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.benchmarks.NativeFlinkMetrics.Stat;
import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.serialization.AbstractDeserializationSchema;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * S5's job on a live topic as a Flink user writes it by hand: Flink's {@code KafkaSource} from the
 * earliest offsets, each value parsed once by its deserializer, bounded out-of-orderness of 2 s per
 * partition with an idle timeout of 3 s, then {@link NativeFlinkMetrics}'s windows and count. It
 * loses late data silently; it is here to be fast.
 */
final class NativeFlinkKafkaMetrics {

  private NativeFlinkKafkaMetrics() {}

  static Result run(S5Topic topic, int parallelism) throws Exception {
    NativeFlinkMetrics.resetCounted();
    long start = System.nanoTime();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    DataStream<Stat> stats =
        env.fromSource(
            source(topic),
            NativeFlinkMetrics.boundedOutOfOrderness().withIdleness(Duration.ofSeconds(3)),
            "kafka");
    NativeFlinkMetrics.countPerWindow(stats, topic.completeUpTo());
    JobClient job = env.executeAsync("native-flink-kafka-metrics");
    CompletableFuture<?> ended = job.getJobExecutionResult();
    long counted =
        UntilExact.await(
            NativeFlinkMetrics::counted, topic.inCompleteWindows(), () -> !ended.isDone());
    Result result =
        Result.now(topic.inCompleteWindows(), (System.nanoTime() - start) / 1_000_000, counted);
    job.cancel();
    return result;
  }

  /** The topic's records from its earliest offsets, each value parsed into a {@link Stat}. */
  static KafkaSource<Stat> source(S5Topic topic) {
    return KafkaSource.<Stat>builder()
        .setBootstrapServers(topic.bootstrapServers())
        .setTopics(topic.topic())
        .setGroupId("native-flink-" + UUID.randomUUID())
        .setStartingOffsets(OffsetsInitializer.earliest())
        .setDeserializer(KafkaRecordDeserializationSchema.valueOnly(new StatSchema()))
        .build();
  }

  /** A value as a {@link Stat}: the one parse of each record. */
  static final class StatSchema extends AbstractDeserializationSchema<Stat> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Stat deserialize(byte[] value) throws IOException {
      return Stat.of(JSON.readTree(value));
    }
  }
}
