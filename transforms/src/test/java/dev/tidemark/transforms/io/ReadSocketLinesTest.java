package dev.tidemark.transforms.io;

import static dev.tidemark.transforms.testing.WindowCounts.S1_LINES;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.LineServer;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.testing.SuiteOrder;
import dev.tidemark.transforms.testing.WindowCounts;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario S1 end to end: the user's own lines from a real socket, counted per key in 5 s
 * event-time windows, on the DirectRunner and on embedded Flink at parallelism 2.
 */
@Order(SuiteOrder.LONGEST_FIRST)
class ReadSocketLinesTest {

  private static final Logger LOG = LoggerFactory.getLogger(ReadSocketLinesTest.class);
  private static final Duration WINDOW = Duration.standardSeconds(5);
  private static final Duration OUT_OF_ORDERNESS = Duration.standardSeconds(1);
  private static final Duration IDLE_TIMEOUT = Duration.standardSeconds(3);

  /** How long past the idle timeout the idle flush may take: polling, bundling, scheduling. */
  private static final long FLUSH_SLACK_MILLIS = 20_000;

  private LineServer server;

  @AfterEach
  void closeServer() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void firesTheS1WindowsAndFlushesTheLastOneWhileTheSocketStaysOpen(String runner)
      throws Exception {
    server = new LineServer();
    Collected windows = new Collected();
    Pipeline pipeline = Pipeline.create(Runners.streaming(runner, 2));
    pipeline
        .apply("ReadLines", readS1Lines(server.port(), IDLE_TIMEOUT))
        .apply("Text", texts())
        .apply("CountPerWindow", WindowCounts.of(WINDOW))
        .apply(windows.sink());

    PipelineResult running = pipeline.run();
    try {
      server.awaitClient(60, TimeUnit.SECONDS);
      // (1) Fourteen lines, then after a pause the fifteenth, in a later bundle: it is on time.
      server.send(S1_LINES.subList(0, 14));
      Thread.sleep(1500);
      server.send(S1_LINES.subList(14, 15));
      long sentAt = System.nanoTime();

      // (2) The first three windows fire on the watermark from ...1589000 - 1 s.
      List<String> expected = WindowCounts.expected(S1_LINES, WINDOW);
      List<String> firstThree = expected.subList(0, 3);
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
      assertThat(windows.snapshot(), containsInAnyOrder(expected.toArray(String[]::new)));
      assertThat(
          expected,
          equalTo(
              List.of(
                  "01,1586489565000,1586489570000=4",
                  "01,1586489570000,1586489575000=5",
                  "01,1586489575000,1586489580000=5",
                  lastWindow)));

      // (5) It fired because the socket went idle, not because the watermark jumped early.
      assertThat(flushMillis, greaterThanOrEqualTo(IDLE_TIMEOUT.getMillis()));
      assertThat(flushMillis, lessThan(IDLE_TIMEOUT.getMillis() + FLUSH_SLACK_MILLIS + 1));
    } finally {
      Runners.cancel(running);
    }
    // (6) The cancelled job leaves no connection behind: its last reader closed the socket.
    assertThat(
        "the cancelled job closes its connection",
        server.awaitClientGone(60, TimeUnit.SECONDS),
        equalTo(true));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void startsBeforeTheServerListensAndEndsWhenTheServerCloses(String runner) throws Exception {
    int port = LineServer.freePort();
    Collected windows = new Collected();
    PipelineResult running = countWindowsOfLines(runner, port, windows);
    try {
      // (1) Nothing listens on the port for a while: the job keeps running and retrying.
      Thread.sleep(2_000);
      assertThat(running.getState(), equalTo(PipelineResult.State.RUNNING));
      // (2) The server comes up; the source connects within its backoff and reads the lines.
      server = new LineServer(port);
      server.awaitClient(60, TimeUnit.SECONDS);
      List<String> lines = List.of("a,1600000001000", "b,1600000002000", "a,1600000007000");
      server.send(lines);
      // (3) The server closes: the stream ends. The window of a@7 s fires only because of that:
      // the idle timeout (10 min) has not passed, and the watermark of 7 s - 1 s closes [0 s, 5 s).
      server.close();
      List<String> expected = WindowCounts.expected(lines, WINDOW);
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

  /**
   * A burst of lines larger than a runner lets one call of a splittable DoFn emit (Beam's Flink
   * runner checkpoints a call after 10,000 outputs or 10 s, the DirectRunner sooner): the runner
   * splits the restriction, {@code tryClaim} fails, and the source must stop the call and go on in
   * the residual. Returning {@code resume()} there failed the job, which a sink that held the
   * pipeline back for 10 s (a database restarting) also showed.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void aBurstPastTheRunnersBoundOnACallIsReadWhole(String runner) throws Exception {
    int port = LineServer.freePort();
    Collected windows = new Collected();
    PipelineResult running = countWindowsOfLines(runner, port, windows);
    try {
      server = new LineServer(port);
      server.awaitClient(60, TimeUnit.SECONDS);
      List<String> lines = new java.util.ArrayList<>();
      for (int i = 0; i < 25_000; i++) {
        lines.add((i % 2 == 0 ? "a," : "b,") + (1600000000000L + i));
      }
      server.send(lines);
      server.close();
      List<String> expected = WindowCounts.expected(lines, WINDOW);
      assertThat(
          "every line is counted once the stream ends",
          windows.awaitUntil(r -> r.containsAll(expected), 120_000),
          equalTo(true));
      assertThat(windows.snapshot(), containsInAnyOrder(expected.toArray(String[]::new)));
    } finally {
      Runners.cancel(running);
    }
  }

  private static MapElements<ArrivedLine, String> texts() {
    return MapElements.into(TypeDescriptors.strings()).via(ArrivedLine::text);
  }

  private static ReadSocketLines readS1Lines(int port, Duration idleTimeout) {
    return ReadSocketLines.from("127.0.0.1", port)
        .withEventTime(CsvEventFormat.keyAndTime().eventTimes())
        .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
        .withIdleTimeout(idleTimeout)
        .endWhenClosed();
  }

  /** Runs, on {@code runner}, a count per window of S1's lines read from {@code port}. */
  private static PipelineResult countWindowsOfLines(String runner, int port, Collected windows) {
    Pipeline pipeline = Pipeline.create(Runners.streaming(runner, 1));
    pipeline
        .apply("ReadLines", readS1Lines(port, Duration.standardMinutes(10)))
        .apply("Text", texts())
        .apply("CountPerWindow", WindowCounts.of(WINDOW))
        .apply(windows.sink());
    return pipeline.run();
  }
}
