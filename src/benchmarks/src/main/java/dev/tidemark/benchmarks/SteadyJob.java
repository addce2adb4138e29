package dev.tidemark.benchmarks;

import dev.tidemark.pipelines.cli.Tidemark;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;

/**
 * One job of the steady-rate benchmark ({@link SteadyRateBenchmark}), in a JVM of its own until the
 * benchmark ends it: S5's metrics on a live topic from its earliest offset, each window's rows
 * appended to a file as they come, the way a user runs each. tidemark's {@code metrics} with its
 * file sink; the hand-written Flink job with {@code KafkaSource}, 2 s of bounded out-of-orderness,
 * an idle timeout of 3 s and a sink that appends and flushes each row.
 */
public final class SteadyJob {

  private SteadyJob() {}

  /** {@code VARIANT BOOTSTRAP TOPIC ROWS PARALLELISM}, VARIANT one of {@link SteadyVariant}. */
  public static void main(String[] args) throws Exception {
    SteadyVariant variant = SteadyVariant.valueOf(args[0]);
    String bootstrap = args[1];
    String topic = args[2];
    Path rows = Path.of(args[3]);
    int parallelism = Integer.parseInt(args[4]);
    if (variant == SteadyVariant.NATIVE_FLINK) {
      runNative(bootstrap, topic, rows, parallelism);
      return;
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                "metrics",
                "--source=kafka://" + bootstrap + "/" + topic,
                "--startFrom=earliest",
                "--idleTimeout=3s",
                "--sink=file:" + rows,
                "--parallelism=" + parallelism));
    if (variant == SteadyVariant.TIDEMARK_FINAL) {
      command.add("--emit=final");
    }
    Tidemark.run(
        command.toArray(String[]::new),
        new PrintStream(PrintStream.nullOutputStream()),
        System.err);
  }

  private static void runNative(String bootstrap, String topic, Path rows, int parallelism)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    KafkaSource<NativeFlinkMetrics.Stat> source =
        KafkaSource.<NativeFlinkMetrics.Stat>builder()
            .setBootstrapServers(bootstrap)
            .setTopics(topic)
            .setGroupId("native-flink-" + UUID.randomUUID())
            .setStartingOffsets(OffsetsInitializer.earliest())
            .setDeserializer(
                KafkaRecordDeserializationSchema.valueOnly(
                    new NativeFlinkKafkaMetrics.StatSchema()))
            .build();
    NativeFlinkMetrics.countPerWindow(
        env.fromSource(
            source,
            NativeFlinkMetrics.boundedOutOfOrderness().withIdleness(Duration.ofSeconds(3)),
            "kafka"),
        new AppendRows(rows.toString()));
    env.execute("native-flink-steady-metrics");
  }

  /** Appends each row to a file and flushes it, as a user's file sink would show it at once. */
  private static final class AppendRows extends RichSinkFunction<Tuple3<String, Long, Long>> {
    private final String path;
    private transient BufferedWriter out;

    AppendRows(String path) {
      this.path = path;
    }

    @Override
    public void invoke(Tuple3<String, Long, Long> row, Context context) throws IOException {
      if (out == null) {
        out =
            Files.newBufferedWriter(
                Path.of(path),
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
      }
      out.write(row.f0);
      out.newLine();
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (out != null) {
        out.close();
      }
    }
  }
}
