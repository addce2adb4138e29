package dev.tidemark.pipelines;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tidemark.transforms.io.LineEventTimes;
import dev.tidemark.transforms.io.ReadSocketLines;
import java.util.concurrent.TimeUnit;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * Scenario S1 as a runnable demo: the bundled sample served over a loopback socket, read by
 * tidemark's socket source on embedded Flink, counted per key in 5 s event-time windows. The first
 * three windows fire on the watermark, the last one by the idle rule while the socket is still
 * open; each result is one JSON line on stdout.
 */
final class SocketCountDemo {

  /** The demo's options; every duration accepts 500ms, 5s, 1m or PT5S. */
  public interface Options extends FlinkPipelineOptions {
    @Description("Size of the tumbling event-time windows.")
    @Default.String("5s")
    String getWindowSize();

    void setWindowSize(String value);

    @Description("How far behind the newest event a line may arrive and still be on time.")
    @Default.String("1s")
    String getMaxOutOfOrderness();

    void setMaxOutOfOrderness(String value);

    @Description("How long the socket must be quiet before the watermark advances without data.")
    @Default.String("3s")
    String getIdleTimeout();

    void setIdleTimeout(String value);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private SocketCountDemo() {}

  /** Runs the demo to its end and returns the process exit code. */
  static int run(Options options) throws Exception {
    Duration windowSize = Durations.parse("windowSize", options.getWindowSize());
    Duration outOfOrderness = Durations.parse("maxOutOfOrderness", options.getMaxOutOfOrderness());
    Duration idleTimeout = Durations.parse("idleTimeout", options.getIdleTimeout());
    options.setRunner(FlinkRunner.class);
    options.setStreaming(true);
    options.setAttachedMode(false);
    // Keeps Flink's Impulse alive so the socket source's watermark hold stays in force.
    options.setShutdownSourcesAfterIdleMs(Long.MAX_VALUE);

    try (SampleServer server = new SampleServer("/samples/s1.csv")) {
      Pipeline pipeline = Pipeline.create(options);
      pipeline
          .apply(
              "ReadLines",
              ReadSocketLines.from("127.0.0.1", server.port())
                  .withEventTime(LineEventTimes.csvEpochMillis(1))
                  .withMaxOutOfOrderness(outOfOrderness)
                  .withIdleTimeout(idleTimeout)
                  .endWhenClosed())
          .apply(
              "KeyByFirstField",
              WithKeys.of((String line) -> line.split(",", -1)[0])
                  .withKeyType(TypeDescriptors.strings()))
          .apply("Window", Window.<KV<String, String>>into(FixedWindows.of(windowSize)))
          .apply("CountPerKey", Count.perKey())
          .apply("PrintJson", ParDo.of(new PrintJsonFn()));
      PipelineResult result = pipeline.run();
      // The sample's last window closes by the idle rule about idleTimeout after the data.
      TimeUnit.MILLISECONDS.sleep(idleTimeout.getMillis() + 15_000);
      server.close();
      TimeUnit.SECONDS.sleep(2);
      result.cancel();
    }
    return 0;
  }

  /** Prints one JSON line per window result. */
  private static final class PrintJsonFn extends DoFn<KV<String, Long>, Void> {
    @ProcessElement
    public void processElement(@Element KV<String, Long> count, BoundedWindow window)
        throws Exception {
      IntervalWindow w = (IntervalWindow) window;
      ObjectNode line = JSON.createObjectNode();
      line.put("key", count.getKey());
      line.put("windowStart", w.start().getMillis());
      line.put("windowEnd", w.end().getMillis());
      line.put("count", count.getValue());
      System.out.println(JSON.writeValueAsString(line));
    }
  }
}
