package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.tidemark.transforms.testing.LineServer;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL restarting in the middle of a run, from the jar on embedded Flink: records stream in
 * over a socket; once rows are in the table, the server is stopped (fast: clients are cut off) for
 * 10 s while records keep coming (longer if the job has not yet tried to write), then started
 * again, and 3 s more of records come. The table ends with every window's count, each row final,
 * none missing or doubled, and the run says so in one WARN line.
 */
@Order(SuiteOrder.LONG)
class TableOutageIT {

  private static final long BASE = 1586489565000L;
  private static final List<String> KEYS = List.of("a", "b", "c");

  /** The database is down for 10 s: 100 steps of one line per key each 100 ms. */
  private static final int DOWN_FOR = 100;

  /** Steps sent after the database is back: 3 s of records, whose windows its rows will need. */
  private static final int AFTER = 30;

  @TempDir Path directory;

  @Test
  void aDatabaseDownFor10SecondsHoldsTheRowsBackAndLosesNone() throws Exception {
    Path log = directory.resolve("run.log");
    Map<String, Long> expected = new TreeMap<>();
    try (PostgresServer server = PostgresServer.start();
        LineServer lines = new LineServer()) {
      Process run =
          TidemarkJar.run(
                  "count",
                  "--source=socket://127.0.0.1:" + lines.port() + "?reconnect=false",
                  "--windowSize=1s",
                  "--idleTimeout=60s",
                  "--sink=" + server.sink("outage"),
                  "--jdbcProperties=" + server.superuserProperties(directory))
              .redirectOutput(log.toFile())
              .start();
      try {
        lines.awaitClient(120, TimeUnit.SECONDS);
        long stoppedAt = -1;
        long restartedAt = -1;
        for (int step = 0; restartedAt < 0 || step <= restartedAt + AFTER; step++) {
          long eventTime = BASE + step * 100L;
          List<String> batch = new ArrayList<>();
          for (String key : KEYS) {
            batch.add(key + "," + eventTime);
            expected.merge(key + "," + (eventTime - eventTime % 1000), 1L, Long::sum);
          }
          lines.send(batch);
          if (stoppedAt < 0 && !server.rows("SELECT 1 FROM outage").isEmpty()) {
            // Rows are coming: take the database away while the records keep streaming in.
            server.stop();
            stoppedAt = step;
          } else if (restartedAt < 0
              && stoppedAt >= 0
              && step >= stoppedAt + DOWN_FOR
              && Files.readString(log).contains("does not answer")) {
            // Down for 10 s at least, and until the job has met the outage (a machine that
            // starves the job for a while must not hide it).
            server.startAgain();
            restartedAt = step;
          }
          assertThat(
              "the job tried a write while the database was down",
              step < stoppedAt + DOWN_FOR * 6 || stoppedAt < 0 || restartedAt >= 0,
              equalTo(true));
          Thread.sleep(100);
        }
        lines.close();
        assertThat(Files.readString(log), run.waitFor(2, TimeUnit.MINUTES), equalTo(true));
        assertThat(Files.readString(log), run.exitValue(), equalTo(0));
      } finally {
        run.destroyForcibly();
      }
      Map<String, Long> counts = new TreeMap<>();
      for (String row :
          server.rows(
              "SELECT key, (extract(epoch FROM window_start) * 1000)::bigint, count, final"
                  + " FROM outage")) {
        String[] columns = row.split("\\|");
        assertThat(row + " is final", columns[3], equalTo("true"));
        counts.put(columns[0] + "," + columns[1], Long.parseLong(columns[2]));
      }
      assertThat(counts, equalTo(expected));
    }
    List<String> warnings =
        Files.readAllLines(log).stream().filter(line -> line.startsWith("WARN")).toList();
    assertThat(Files.readString(log), warnings, hasSize(1));
    assertThat(warnings.get(0), org.hamcrest.Matchers.containsString("does not answer"));
  }
}
