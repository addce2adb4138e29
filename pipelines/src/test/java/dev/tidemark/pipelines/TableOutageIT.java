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
 * 10 s while records keep coming, then started again. The table ends with every window's count,
 * each row final, none missing or doubled, and the run says so in one WARN line.
 */
@Order(SuiteOrder.LONG)
class TableOutageIT {

  private static final long BASE = 1586489565000L;
  private static final List<String> KEYS = List.of("a", "b", "c");

  /** One line per key every 100 ms of event time, sent at that pace: 25 s in all. */
  private static final int STEPS = 250;

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
        for (int step = 0; step < STEPS; step++) {
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
          } else if (stoppedAt >= 0 && step == stoppedAt + 100) {
            server.startAgain();
          }
          Thread.sleep(100);
        }
        assertThat(
            "the database was stopped in the middle of the run", stoppedAt > 0, equalTo(true));
        assertThat("and started again before the end", stoppedAt + 100 < STEPS, equalTo(true));
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
    assertThat(warnings.toString(), warnings, hasSize(1));
    assertThat(warnings.get(0), org.hamcrest.Matchers.containsString("does not answer"));
  }
}
