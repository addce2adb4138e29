package dev.tidemark.benchmarks;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;

/**
 * S5's query text, unchanged, on Flink SQL 1.19 over a live topic, as a Flink SQL user runs it:
 * Flink's {@code KafkaSource} from the earliest offsets with the hand-written job's parse ({@link
 * NativeFlinkKafkaMetrics#source}), {@code rowtime} from {@code t} with a watermark 2 s behind it
 * (emitted every 200 ms, Flink's default), sources idle after 3 s as the hand-written job's, and
 * the query's rows counted for the complete windows. Like the hand-written job, it drops late rows
 * silently.
 */
final class FlinkSqlKafkaMetrics {

  private static final DateTimeFormatter EVENT_TIME_LOG =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private static final AtomicLong COUNTED = new AtomicLong();

  private FlinkSqlKafkaMetrics() {}

  static Result run(S5Topic topic, int parallelism) throws Exception {
    COUNTED.set(0);
    long start = System.nanoTime();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    // The watermark of each partition, as a Kafka table's is: the source's, 2 s behind the
    // partition's newest t, idle after 3 s. A watermark made after the source, from a reader's
    // records of both its partitions, would drop records of the one read behind.
    StreamTableEnvironment sql =
        FlinkSqlMetrics.withSourceTable(
            env.fromSource(
                NativeFlinkKafkaMetrics.source(topic),
                NativeFlinkMetrics.boundedOutOfOrderness().withIdleness(Duration.ofSeconds(3)),
                "kafka"),
            FlinkSqlMetrics.statColumns()
                .columnByMetadata("rowtime", DataTypes.TIMESTAMP_LTZ(3))
                .watermark("rowtime", "SOURCE_WATERMARK()")
                .build());
    sql.toDataStream(sql.sqlQuery(Query.S5.text())).addSink(new CountRows(topic.completeUpTo()));
    JobClient job = env.executeAsync("flink-sql-kafka-metrics");
    CompletableFuture<?> ended = job.getJobExecutionResult();
    long counted = UntilExact.await(COUNTED::get, topic.inCompleteWindows(), () -> !ended.isDone());
    Result result =
        Result.now(topic.inCompleteWindows(), (System.nanoTime() - start) / 1_000_000, counted);
    job.cancel();
    return result;
  }

  /** Adds up the {@code count_result} of each row whose window ends no later than a bound. */
  private static final class CountRows implements SinkFunction<Row> {
    private final long countedUpTo;

    CountRows(long countedUpTo) {
      this.countedUpTo = countedUpTo;
    }

    @Override
    public void invoke(Row row, Context context) {
      long windowEnd =
          LocalDateTime.parse((String) row.getField("event_time_log"), EVENT_TIME_LOG)
              .toInstant(ZoneOffset.UTC)
              .toEpochMilli();
      if (windowEnd <= countedUpTo) {
        COUNTED.addAndGet((Long) row.getField("count_result"));
      }
    }
  }
}
