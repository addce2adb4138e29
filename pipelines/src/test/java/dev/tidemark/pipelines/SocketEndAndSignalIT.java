package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;

import dev.tidemark.transforms.testing.ChildJvms;
import dev.tidemark.transforms.testing.LineServer;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a run from the jar ends when its input does not: a socket read with {@code ?reconnect=false}
 * ends the job on embedded Flink too when the sender closes, with every window written and the
 * summary line; SIGTERM stops a live job on either runner and still says what it processed; and a
 * cancel from the Web UI ends an embedded run's client with exit 0 and one line, not a trace.
 */
@Order(SuiteOrder.LONG)
class SocketEndAndSignalIT {

  private static final long BASE = 1586489565000L;

  /** Two windows of 5 s: a 2 and b 1, then a 1 and b 1. */
  private static final List<String> LINES =
      List.of(
          "a," + BASE,
          "a," + (BASE + 1000),
          "b," + (BASE + 2000),
          "a," + (BASE + 6000),
          "b," + (BASE + 7000));

  /** The summary of a run stopped by a signal: records in and results out. */
  private static final Pattern STOPPED_SUMMARY =
      Pattern.compile(
          "tidemark: (\\d+) records in, (\\d+) results out, \\d+ late, \\d+ dead letters"
              + Pattern.quote(" (stopped by a signal: counts up to the stop)"));

  @TempDir Path directory;

  @Test
  void reconnectFalseEndsTheJobOnFlinkWhenTheSenderCloses() throws Exception {
    Path results = directory.resolve("results.json");
    Path log = directory.resolve("run.log");
    try (LineServer server = new LineServer()) {
      Process run =
          start(log, server, "?reconnect=false", "--sink=file:" + results, "--idleTimeout=60s");
      try {
        server.awaitClient(120, TimeUnit.SECONDS);
        server.send(LINES);
        server.close();
        // (1) The job ends by itself, exit 0, with the summary of everything it read.
        String output = awaitExitZero(run, log);
        assertThat(
            output,
            containsString("tidemark: 5 records in, 4 results out, 0 late, 0 dead letters"));
        // (2) Every window fired and was written before the job was stopped.
        Map<String, Long> expected = new TreeMap<>();
        expected.put("a," + BASE, 2L);
        expected.put("b," + BASE, 1L);
        expected.put("a," + (BASE + 5000), 1L);
        expected.put("b," + (BASE + 5000), 1L);
        assertThat(Outputs.finalCounts(Outputs.read(results)), equalTo(expected));
      } finally {
        run.destroyForcibly();
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void sigtermStopsTheJobAndSumsUpWhatItProcessed(String runner) throws Exception {
    Path log = directory.resolve("run-" + runner + ".log");
    Path results = directory.resolve("results-" + runner + ".json");
    try (LineServer server = new LineServer()) {
      Process run =
          start(
              log, server, "", "--sink=file:" + results, "--idleTimeout=60s", "--runner=" + runner);
      try {
        server.awaitClient(120, TimeUnit.SECONDS);
        server.send(LINES);
        server.send(List.of("not a record"));
        // The sender stays connected: the job would run for ever. Once the first window has
        // fired (the watermark passed its end) and the bad line is a dead letter (on stdout, the
        // log), every line has been read; the second window waits.
        awaitUntil(
            log,
            () ->
                Files.exists(results)
                    && Outputs.read(results).size() == 2
                    && Files.readString(log).contains("not a record"));
        run.destroy();
        boolean stopped = run.waitFor(1, TimeUnit.MINUTES);
        String output = Files.readString(log);
        assertThat("stops within 1 min; its log:\n" + output, stopped, equalTo(true));
        assertThat(
            output,
            output,
            containsString(
                "tidemark: 6 records in, 2 results out, 0 late, 1 dead letters (stopped by a"
                    + " signal: counts up to the stop)"));
        assertThat("the JVM's exit status for SIGTERM", run.exitValue(), equalTo(143));
        assertThat("one summary, and nothing went wrong", output, not(containsString("Exception")));
      } finally {
        run.destroyForcibly();
      }
    }
  }

  /**
   * (1) A replay paced at 4,000 records a second, 80,000 in all, is stopped once a sixth of its
   * windows are written, about halfway through its records (its panes come a few seconds behind
   * what it reads); (2) its summary counts what it did up to the stop, from the counters Flink last
   * reported: never zeros for work that was done, and less than the whole recording. Its results
   * out are the panes handed to the file sink, as the file holds them give or take two lags, each
   * of a second or two: the counters Flink last reported are that old, and a cancel loses the
   * sink's last bundle, which it writes at once when the bundle ends. This replay writes about 24
   * panes a second, so the two agree within 5 s of them.
   */
  @Test
  void sigtermHalfwayThroughAReplaySumsUpWhatItProcessed() throws Exception {
    Path log = directory.resolve("replay.log");
    Path results = directory.resolve("replay-results.json");
    Process run =
        TidemarkJar.run(
                "count",
                "--source=generator:records=80000,keys=3,rate=4000,seed=9",
                "--sink=file:" + results)
            .redirectOutput(log.toFile())
            .start();
    try {
      // 80,000 records 10 ms apart in 3 keys: 160 windows of 5 s a key, 480 in all.
      awaitUntil(log, () -> Files.exists(results) && Outputs.read(results).size() >= 80);
      run.destroy();
      boolean stopped = run.waitFor(1, TimeUnit.MINUTES);
      String output = Files.readString(log);
      assertThat("stops within 1 min; its log:\n" + output, stopped, equalTo(true));
      assertThat("the JVM's exit status for SIGTERM", run.exitValue(), equalTo(143));
      Matcher summary = STOPPED_SUMMARY.matcher(output);
      assertThat(output, summary.find(), equalTo(true));
      long recordsIn = Long.parseLong(summary.group(1));
      long resultsOut = Long.parseLong(summary.group(2));
      assertThat(output, recordsIn, allOf(greaterThan(0L), lessThan(80_000L)));
      long written = Outputs.read(results).size();
      assertThat(output, resultsOut, greaterThan(0L));
      assertThat(
          output + "written: " + written,
          Math.abs(resultsOut - written),
          lessThanOrEqualTo(5 * 24L));
    } finally {
      run.destroyForcibly();
    }
  }

  @Test
  void aCancelFromTheWebUiEndsAnEmbeddedRunWithoutATrace() throws Exception {
    Path log = directory.resolve("run-cancelled.log");
    Path results = directory.resolve("results-cancelled.json");
    int webUi = LineServer.freePort();
    try (LineServer server = new LineServer()) {
      Process run =
          start(log, server, "", "--sink=file:" + results, "--idleTimeout=60s", "--webUi=" + webUi);
      try {
        server.awaitClient(120, TimeUnit.SECONDS);
        server.send(LINES);
        awaitUntil(log, () -> Files.exists(results) && Outputs.read(results).size() == 2);
        FlinkRest.cancelJobs("127.0.0.1:" + webUi);
        String output = awaitExitZero(run, log);
        assertThat(
            output,
            containsString(
                "tidemark: the job was cancelled from Flink's REST API or Web UI; its counts are"
                    + " unknown"));
        assertThat(output, not(containsString("Exception")));
      } finally {
        run.destroyForcibly();
      }
    }
  }

  /**
   * Waits for {@code run} to end, within 4 minutes, with exit 0; its output. A run that does not
   * end fails the test with its main and tidemark threads' stacks first, then its log.
   */
  private static String awaitExitZero(Process run, Path log) throws Exception {
    if (!run.waitFor(4, TimeUnit.MINUTES)) {
      String threads = tidemarkThreads(ChildJvms.threadDump(run));
      throw new AssertionError(
          "the run did not end within 4 min; its threads:\n"
              + threads
              + "\nits log:\n"
              + Files.readString(log));
    }
    String output = Files.readString(log);
    assertThat(output, run.exitValue(), equalTo(0));
    return output;
  }

  /** The stacks of the main thread and of tidemark's own threads in a {@code jcmd} thread dump. */
  private static String tidemarkThreads(String dump) {
    return Arrays.stream(dump.split("\n\n"))
        .filter(thread -> thread.startsWith("\"main\"") || thread.startsWith("\"tidemark"))
        .collect(Collectors.joining("\n\n"));
  }

  /** Waits until {@code condition} holds; the run's log says why if it does not in time. */
  private static void awaitUntil(Path log, Callable<Boolean> condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!condition.call()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not in the log in time:\n" + Files.readString(log));
      }
      Thread.sleep(200);
    }
  }

  private static Process start(Path log, LineServer server, String query, String... options)
      throws Exception {
    List<String> args =
        new java.util.ArrayList<>(
            List.of("count", "--source=socket://127.0.0.1:" + server.port() + query));
    args.addAll(List.of(options));
    return TidemarkJar.run(args.toArray(String[]::new)).redirectOutput(log.toFile()).start();
  }
}
