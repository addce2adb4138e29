package dev.tidemark.benchmarks;

import dev.tidemark.transforms.io.kafka.IdleAwareTimestampPolicyFactory;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.kafka.common.TopicPartition;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH microbenchmarks of what tidemark does once per record: parse an S5 line, stamp a Kafka record
 * under the idle-aware policy, and decide whether a record is late.
 *
 * <pre>{@code
 * java -cp src/benchmarks/target/tidemark-benchmarks.jar org.openjdk.jmh.Main HotPaths
 * }</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HotPaths {

  private static final String LINE =
      "{\"t\":1580896327330,\"st\":\"DIRECT\",\"i\":\"hitch_passenger_order_2020_01_22_23_50_40\","
          + "\"op\":\"es_sink\",\"id\":\"4bd1b2f4\",\"msg\":\"ok\",\"rId\":\"r-17\"}";

  private final JsonEventFormat format = JsonEventFormat.withKey("i", "op").withTime("t");
  private final EventTimeWindowing windowing =
      EventTimeWindowing.fixed(Duration.standardSeconds(1))
          .withAllowedLateness(Duration.standardSeconds(5));
  private TimestampPolicy<String, String> policy;
  private KafkaRecord<String, String> record;
  private Instant watermark;
  private long eventTime;

  @Setup
  public void setUp() {
    policy =
        IdleAwareTimestampPolicyFactory.<String, String>byEventTime(
                kafka -> new Instant(1580896327330L))
            .withMaxOutOfOrderness(Duration.standardSeconds(2))
            .createTimestampPolicy(new TopicPartition("stats", 0), Optional.empty());
    record = new KafkaRecord<>("stats", 0, 0, 0, KafkaTimestampType.CREATE_TIME, null, "key", LINE);
    watermark = new Instant(1580896329000L);
    eventTime = 1580896327330L;
  }

  @Benchmark
  public Event parseS5Line() throws BadRecordException {
    return format.parse(LINE);
  }

  @Benchmark
  public Instant stampKafkaRecord() {
    return policy.getTimestampForRecord(null, record);
  }

  @Benchmark
  public boolean decideLateness() {
    eventTime += 7;
    IntervalWindow window = windowing.windowOf(new Instant(eventTime));
    return windowing.isExpired(window, watermark);
  }
}
