package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;

import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.LineServer;
import dev.tidemark.transforms.testing.Runners;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario S1 end to end: the user's own lines from a real socket, counted per key in 5 s
 * event-time windows, on the DirectRunner and on embedded Flink at parallelism 2. The last line
 * comes after a pause, in a second burst, so the test also shows that a record read in a later
 * bundle is on time.
 */
class ReadSocketLinesTest {

  private static final Logger LOG = LoggerFactory.getLogger(ReadSocketLinesTest.class);
  private static final Duration WINDOW = Duration.standardSeconds(5);
  private static final Duration OUT_OF_ORDERNESS = Duration.standardSeconds(1);
  private static final Duration IDLE_TIMEOUT = Duration.standardSeconds(3);

  /** How long past the idle timeout the idle flush may take: polling, bundling, scheduling. */
  private static final long FLUSH_SLACK_MILLIS = 20_000;

  /** Scenario S1's input, one line each, in the order the user sent it. */
  private static final List<String> S1_LINES =
      List.of(
          "01,1586489566000",
          "01,1586489567000",
          "01,1586489568000",
          "01,1586489569000",
          "01,1586489570000",
          "01,1586489571000",
          "01,1586489572000",
          "01,1586489573000",
          "01,1586489574000",
          "01,1586489575000",
          "01,1586489576000",
          "01,1586489577000",
          "01,1586489578000",
          "01,1586489579000",
          "01,1586489589000");

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void firesTheS1WindowsAndFlushesTheLastOneWhileTheSocketStaysOpen(String runner)
      throws Exception {
    Collected windows = new Collected();
    Pipeline pipeline = Pipeline.create(Runners.streaming(runner, 2));
    pipeline
        .apply(
            "ReadLines",
            ReadSocketLines.from("127.0.0.1", server().port())
                .withEventTime(LineEventTimes.csvEpochMillis(1))
                .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
                .withIdleTimeout(IDLE_TIMEOUT)
                .endWhenClosed())
        .apply(
            "KeyByFirstField",
            WithKeys.of((String line) -> line.split(",")[0]).withKeyType(TypeDescriptors.strings()))
        .apply("Window", Window.<KV<String, String>>into(FixedWindows.of(WINDOW)))
        .apply("CountPerKey", Count.perKey())
        .apply("Format", ParDo.of(new FormatWindowCountFn()))
        .apply(windows.sink());

    PipelineResult running = pipeline.run();
    try {
      // (1) The job starts before the sender: the source retries until the server accepts.
      server.awaitClient(60, TimeUnit.SECONDS);
      server.send(S1_LINES.subList(0, 14));
      Thread.sleep(1500);
      server.send(S1_LINES.subList(14, 15));
      long sentAt = System.nanoTime();

      // (2) The first three windows fire on the watermark from ...1589000 - 1 s.
      Map<String, Long> expected = referenceCounts(S1_LINES);
      List<String> firstThree =
          expected.entrySet().stream()
              .filter(e -> !e.getKey().startsWith("01,1586489585000"))
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.toList());
      assertThat(
          "the three closed windows fire",
          windows.awaitUntil(r -> r.containsAll(firstThree), 120_000),
          equalTo(true));

      // (3) The last window holds the only record after a pause. With the socket still open and
      // quiet, the idle watermark closes it within the idle timeout plus some slack.
      String lastWindow = "01,1586489585000,1586489590000=1";
      boolean flushed =
          windows.awaitUntil(
              r -> r.contains(lastWindow), IDLE_TIMEOUT.getMillis() + FLUSH_SLACK_MILLIS);
      long flushMillis = (System.nanoTime() - sentAt) / 1_000_000;
      LOG.info(
          "{}: the last S1 window fired {} ms after the last line was sent", runner, flushMillis);
      assertThat("the last window fires while the socket is open", flushed, equalTo(true));
      assertThat(running.getState(), equalTo(PipelineResult.State.RUNNING));

      // (4) Each window fired exactly once, with the counts of S1's table.
      assertThat(
          windows.snapshot(),
          containsInAnyOrder(
              expected.entrySet().stream()
                  .map(e -> e.getKey() + "=" + e.getValue())
                  .toArray(String[]::new)));
      assertThat(
          expected,
          equalTo(
              Map.of(
                  "01,1586489565000,1586489570000", 4L,
                  "01,1586489570000,1586489575000", 5L,
                  "01,1586489575000,1586489580000", 5L,
                  "01,1586489585000,1586489590000", 1L)));

      // (6) It fired because the socket went idle, not because the watermark jumped early.
      assertThat(flushMillis, greaterThanOrEqualTo(IDLE_TIMEOUT.getMillis()));
      assertThat(flushMillis, lessThan(IDLE_TIMEOUT.getMillis() + FLUSH_SLACK_MILLIS + 1));
    } finally {
      Runners.cancel(running);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void startsBeforeTheServerListensAndEndsWhenTheServerCloses(String runner) throws Exception {
    int port = LineServer.freePort();
    Collected windows = new Collected();
    Pipeline pipeline = Pipeline.create(Runners.streaming(runner, 1));
    pipeline
        .apply(
            "ReadLines",
            ReadSocketLines.from("127.0.0.1", port)
                .withEventTime(LineEventTimes.csvEpochMillis(1))
                .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
                .withIdleTimeout(Duration.standardMinutes(10))
                .endWhenClosed())
        .apply(
            "KeyByFirstField",
            WithKeys.of((String line) -> line.split(",")[0]).withKeyType(TypeDescriptors.strings()))
        .apply("Window", Window.<KV<String, String>>into(FixedWindows.of(WINDOW)))
        .apply("CountPerKey", Count.perKey())
        .apply("Format", ParDo.of(new FormatWindowCountFn()))
        .apply(windows.sink());

    PipelineResult running = pipeline.run();
    try {
      // (1) Nothing listens on the port for a while: the job keeps running and retrying.
      Thread.sleep(2_000);
      assertThat(running.getState(), equalTo(PipelineResult.State.RUNNING));
      // (2) The server comes up; the source connects within its backoff and reads the lines.
      server = new LineServer(port);
      server.awaitClient(60, TimeUnit.SECONDS);
      List<String> lines = List.of("a,1000", "b,2000", "a,7000");
      server.send(lines);
      // (3) The server closes: the stream ends. The window of a@7000 fires only because of that:
      // the idle timeout (10 min) has not passed, and the watermark of 7000 - 1 s closes [0, 5000).
      server.close();
      List<String> expected =
          referenceCounts(lines).entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.toList());
      assertThat(
          "every window fires at the end of the stream",
          windows.awaitUntil(r -> r.size() >= expected.size(), 120_000),
          equalTo(true));
      assertThat(windows.snapshot(), containsInAnyOrder(expected.toArray(String[]::new)));
      if (runner.equals("DirectRunner")) {
        // The DirectRunner also ends the job; on Flink the kept-alive Impulse keeps it running.
        assertThat(
            running.waitUntilFinish(Duration.standardMinutes(2)),
            equalTo(PipelineResult.State.DONE));
      }
    } finally {
      Runners.cancel(running);
    }
  }

  private LineServer server;

  private LineServer server() throws java.io.IOException {
    server = new LineServer();
    return server;
  }

  @org.junit.jupiter.api.AfterEach
  void closeServer() throws java.io.IOException {
    if (server != null) {
      server.close();
    }
  }

  /** Counts per key and 5 s epoch-aligned window, computed directly from the input lines. */
  private static Map<String, Long> referenceCounts(List<String> lines) {
    Map<String, Long> counts = new TreeMap<>();
    for (String line : lines) {
      String[] fields = line.split(",");
      long t = Long.parseLong(fields[1]);
      long start = t - Math.floorMod(t, WINDOW.getMillis());
      counts.merge(fields[0] + "," + start + "," + (start + WINDOW.getMillis()), 1L, Long::sum);
    }
    return counts;
  }

  /** "key,start,end=count" for each window's result. */
  private static final class FormatWindowCountFn extends DoFn<KV<String, Long>, String> {
    @ProcessElement
    public void processElement(
        @Element KV<String, Long> count, BoundedWindow window, OutputReceiver<String> out) {
      IntervalWindow w = (IntervalWindow) window;
      out.output(
          count.getKey()
              + ","
              + w.start().getMillis()
              + ","
              + w.end().getMillis()
              + "="
              + count.getValue());
    }
  }
}
