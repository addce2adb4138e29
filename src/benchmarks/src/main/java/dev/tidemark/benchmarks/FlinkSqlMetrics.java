package dev.tidemark.benchmarks;

import dev.tidemark.benchmarks.NativeFlinkMetrics.Stat;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;

/**
 * One of S5's query texts ({@link Query}), unchanged, on Flink SQL 1.19, as a Flink SQL user runs
 * it over the same file: one reader, the same Jackson parse as the hand-written job, {@code
 * rowtime} from {@code t} with a watermark 2 s behind it (emitted every 200 ms, Flink's default),
 * and the query's rows counted. Like the hand-written job, it drops late rows silently and has no
 * idle handling.
 */
final class FlinkSqlMetrics {

  private static final AtomicLong COUNTED = new AtomicLong();

  private FlinkSqlMetrics() {}

  static Result run(Path input, long lines, int parallelism, Query query) throws Exception {
    COUNTED.set(0);
    long start = System.nanoTime();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    StreamTableEnvironment sql =
        withSourceTable(
            env.readTextFile(input.toString())
                .setParallelism(1)
                .map(NativeFlinkMetrics.parseStat()),
            statColumns()
                .columnByExpression("rowtime", "CAST(TO_TIMESTAMP_LTZ(t, 3) AS TIMESTAMP(3))")
                .watermark("rowtime", "rowtime - INTERVAL '2' SECOND")
                .build());
    sql.toDataStream(sql.sqlQuery(query.text())).addSink(new CountRows());
    env.execute("flink-sql-metrics");
    return Result.now(lines, (System.nanoTime() - start) / 1_000_000, query.records(COUNTED.get()));
  }

  /**
   * A table environment of {@code stats}' job, its local time zone UTC, in which {@code stats} is
   * the table {@code _source_table} with {@code schema}.
   */
  static StreamTableEnvironment withSourceTable(DataStream<Stat> stats, Schema schema) {
    StreamTableEnvironment sql = StreamTableEnvironment.create(stats.getExecutionEnvironment());
    sql.getConfig().setLocalTimeZone(ZoneOffset.UTC);
    sql.createTemporaryView("_source_table", sql.fromDataStream(stats, schema));
    return sql;
  }

  /** A {@link Stat}'s columns, {@code rowtime} and the watermark still to add. */
  static Schema.Builder statColumns() {
    return Schema.newBuilder()
        .column("t", DataTypes.BIGINT())
        .column("i", DataTypes.STRING())
        .column("op", DataTypes.STRING());
  }

  /** Adds up each row's {@code count_result}. */
  private static final class CountRows implements SinkFunction<Row> {
    @Override
    public void invoke(Row row, Context context) {
      COUNTED.addAndGet((Long) row.getField("count_result"));
    }
  }
}
