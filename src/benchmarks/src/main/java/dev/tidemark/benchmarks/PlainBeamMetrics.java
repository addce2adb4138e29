package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * S5's job as plain Beam on the FlinkRunner: the file through {@code TextIO}, a Jackson parse,
 * {@code FixedWindows} of 1 s with the default trigger, {@code Count.perElement()} of (i, op), S5's
 * JSON row. No late capture, no idle handling, no replay rules.
 */
final class PlainBeamMetrics {

  private static final AtomicLong COUNTED = new AtomicLong();

  private PlainBeamMetrics() {}

  static Result run(Path input, long lines, int parallelism) {
    COUNTED.set(0);
    // Timed from the first line of the job, as NativeFlinkMetrics and tidemark's run are.
    long start = System.nanoTime();
    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setStreaming(true);
    options.setParallelism(parallelism);
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Read", TextIO.read().from(input.toString()))
        .apply("Parse", ParDo.of(new ParseFn()))
        .apply("Window", Window.into(FixedWindows.of(Duration.standardSeconds(1))))
        .apply("Count", Count.perElement())
        .apply("ToRow", ParDo.of(new ToRowFn()));
    pipeline.run().waitUntilFinish();
    return Result.now(lines, (System.nanoTime() - start) / 1_000_000, COUNTED.get());
  }

  private static final class ParseFn extends DoFn<String, String> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ProcessElement
    public void processElement(@Element String line, OutputReceiver<String> out) throws Exception {
      JsonNode node = JSON.readTree(line);
      out.outputWithTimestamp(
          node.get("i").asText() + "\u0000" + node.get("op").asText(),
          new Instant(node.get("t").asLong()));
    }
  }

  private static final class ToRowFn extends DoFn<KV<String, Long>, String> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter SECONDS =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    @ProcessElement
    public void processElement(
        @Element KV<String, Long> count, BoundedWindow window, OutputReceiver<String> out)
        throws Exception {
      String[] iAndOp = count.getKey().split("\u0000");
      ObjectNode row = JSON.createObjectNode();
      row.put("index_name", iAndOp[0]);
      row.put(
          "event_time_log",
          SECONDS.format(
              java.time.Instant.ofEpochMilli(((IntervalWindow) window).end().getMillis())));
      row.put("op_type", iAndOp[1]);
      row.put("count_result", count.getValue());
      COUNTED.addAndGet(count.getValue());
      out.output(JSON.writeValueAsString(row));
    }
  }
}
