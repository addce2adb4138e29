package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.startsWith;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An address where nothing answers fails before the job starts, with one line that names it and
 * what to check, and exit code 2: a Kafka broker that is not there (the Kafka client alone retries
 * for minutes), and a {@code --flinkMaster} that is not there or is not Flink. (A topic that does
 * not exist needs a real broker: {@code KafkaPipelinesIT}.) The bound on the time is loose on
 * purpose: it tells seconds from the minutes these took before, on a noisy machine.
 */
class FastFailuresTest {

  private static final long SECONDS_AT_MOST = 30;

  /** The sinks a cluster takes: stdout would be its TaskManagers' log. */
  private static final String[] FILE_SINKS = {
    "--sink=file:" + System.getProperty("java.io.tmpdir") + "/results.json",
    "--lateSink=file:" + System.getProperty("java.io.tmpdir") + "/late.json",
    "--deadLetterSink=file:" + System.getProperty("java.io.tmpdir") + "/dead.json"
  };

  @Test
  void noBrokerAtTheSourceAddress() {
    assertFailsFast(
        "tidemark: --source: no Kafka broker answered at 127.0.0.1:1 within 10 s (connection"
            + " refused); check the host and port",
        "count",
        "--source=kafka://127.0.0.1:1/clicks");
  }

  @Test
  void noBrokerAtTheSinkAddress() {
    assertFailsFast(
        "tidemark: --deadLetterSink: no Kafka broker answered at 127.0.0.1:1 within 10 s"
            + " (connection refused)",
        "count",
        "--deadLetterSink=kafka://127.0.0.1:1/dead");
  }

  @Test
  void noClusterAtTheFlinkMaster() {
    assertFailsFast(
        "tidemark: --flinkMaster: no Flink cluster answered at 127.0.0.1:1 within 10 s"
            + " (connection refused); check the JobManager's REST address",
        "count",
        "--flinkMaster=127.0.0.1:1",
        FILE_SINKS[0],
        FILE_SINKS[1],
        FILE_SINKS[2]);
  }

  @Test
  void aFlinkMasterThatIsNotFlink() throws Exception {
    HttpServer notFlink =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    notFlink.createContext(
        "/",
        exchange -> {
          exchange.sendResponseHeaders(404, -1);
          exchange.close();
        });
    notFlink.start();
    try {
      String address = "127.0.0.1:" + notFlink.getAddress().getPort();
      assertFailsFast(
          "tidemark: --flinkMaster: "
              + address
              + " answered GET /config with HTTP 404, not as a Flink JobManager does",
          "count",
          "--flinkMaster=" + address,
          FILE_SINKS[0],
          FILE_SINKS[1],
          FILE_SINKS[2]);
    } finally {
      notFlink.stop(0);
    }
  }

  @Test
  void aFlinkMasterThatIsNotAnAddress() {
    assertFailsFast(
        "tidemark: --flinkMaster: 'cluster-one' is not HOST:PORT",
        "count",
        "--flinkMaster=cluster-one",
        FILE_SINKS[0],
        FILE_SINKS[1],
        FILE_SINKS[2]);
  }

  private static void assertFailsFast(String firstWords, String... args) {
    long start = System.nanoTime();
    CommandLine run = CommandLine.run(args);
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    assertThat(run.err, run.exitCode, equalTo(2));
    assertThat("one line", run.err.lines().count(), equalTo(1L));
    assertThat(run.err, startsWith(firstWords));
    assertThat(run.err, seconds, lessThan(SECONDS_AT_MOST));
  }
}
