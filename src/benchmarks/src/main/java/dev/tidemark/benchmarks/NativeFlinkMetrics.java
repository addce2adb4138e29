package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.time.Time;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * S5's job as a Flink user writes it by hand on the DataStream API: one reader of the file, a
 * Jackson parse, bounded out-of-orderness of 2 s, key by (i, op), 1 s tumbling event-time windows,
 * a count, and S5's JSON row. It loses late data silently and has no idle handling; it is here to
 * be fast.
 */
final class NativeFlinkMetrics {

  private static final AtomicLong COUNTED = new AtomicLong();

  /** Starts this JVM's count of what the rows count from zero. */
  static void resetCounted() {
    COUNTED.set(0);
  }

  private NativeFlinkMetrics() {}

  static Result run(Path input, long lines, int parallelism) throws Exception {
    resetCounted();
    // Timed from the first line of the job, as a user waits for it: building the job is part of
    // every variant's run, tidemark's options and pipeline as much as this environment and graph.
    long start = System.nanoTime();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    DataStream<Stat> stats =
        env.readTextFile(input.toString())
            .setParallelism(1)
            .map(new ParseStat())
            .assignTimestampsAndWatermarks(boundedOutOfOrderness());
    countPerWindow(stats, Long.MAX_VALUE);
    env.execute("native-flink-metrics");
    return Result.now(lines, (System.nanoTime() - start) / 1_000_000, COUNTED.get());
  }

  /** The Jackson parse of an S5 line into a {@link Stat}, which Flink SQL's variant shares. */
  static MapFunction<String, Stat> parseStat() {
    return new ParseStat();
  }

  /** Bounded out-of-orderness of 2 s, each record's event time its {@code t}. */
  static WatermarkStrategy<Stat> boundedOutOfOrderness() {
    return WatermarkStrategy.<Stat>forBoundedOutOfOrderness(Duration.ofSeconds(2))
        .withTimestampAssigner((stat, previous) -> stat.t);
  }

  /**
   * Keys by (i, op), counts in 1 s tumbling windows and makes S5's row; {@link #counted()} adds up
   * the counts of the windows that end no later than {@code countedUpTo}.
   */
  static void countPerWindow(DataStream<Stat> stats, long countedUpTo) {
    countPerWindow(stats, new CountRows(countedUpTo));
  }

  /**
   * Keys by (i, op), counts in 1 s tumbling windows and hands S5's row, its count and its window's
   * end to {@code rows}.
   */
  static void countPerWindow(
      DataStream<Stat> stats, SinkFunction<Tuple3<String, Long, Long>> rows) {
    stats
        .keyBy(stat -> stat.i + "\u0000" + stat.op)
        .window(TumblingEventTimeWindows.of(Time.seconds(1)))
        .aggregate(new CountStats(), new ToRow())
        .addSink(rows);
  }

  /** What the rows of this JVM's job have counted so far. */
  static long counted() {
    return COUNTED.get();
  }

  /** One S5 record; a Flink POJO. */
  public static final class Stat {
    public long t;
    public String i;
    public String op;

    static Stat of(JsonNode node) {
      Stat stat = new Stat();
      stat.t = node.get("t").asLong();
      stat.i = node.get("i").asText();
      stat.op = node.get("op").asText();
      return stat;
    }
  }

  private static final class ParseStat implements MapFunction<String, Stat> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Stat map(String line) throws Exception {
      return Stat.of(JSON.readTree(line));
    }
  }

  private static final class CountStats implements AggregateFunction<Stat, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(Stat stat, Long count) {
      return count + 1;
    }

    @Override
    public Long getResult(Long count) {
      return count;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  /** S5's row, with its count and its window's end. */
  private static final class ToRow
      extends ProcessWindowFunction<Long, Tuple3<String, Long, Long>, String, TimeWindow> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter SECONDS =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    @Override
    public void process(
        String key,
        Context context,
        Iterable<Long> counts,
        Collector<Tuple3<String, Long, Long>> out)
        throws Exception {
      long count = counts.iterator().next();
      String[] iAndOp = key.split("\u0000");
      ObjectNode row = JSON.createObjectNode();
      row.put("index_name", iAndOp[0]);
      row.put("event_time_log", SECONDS.format(Instant.ofEpochMilli(context.window().getEnd())));
      row.put("op_type", iAndOp[1]);
      row.put("count_result", count);
      out.collect(Tuple3.of(JSON.writeValueAsString(row), count, context.window().getEnd()));
    }
  }

  private static final class CountRows implements SinkFunction<Tuple3<String, Long, Long>> {
    private final long countedUpTo;

    CountRows(long countedUpTo) {
      this.countedUpTo = countedUpTo;
    }

    @Override
    public void invoke(Tuple3<String, Long, Long> row, Context context) {
      if (row.f2 <= countedUpTo) {
        COUNTED.addAndGet(row.f1);
      }
    }
  }
}
