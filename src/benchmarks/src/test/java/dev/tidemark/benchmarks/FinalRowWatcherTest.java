package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the steady-rate benchmark reads a job's rows file as it grows. */
class FinalRowWatcherTest {

  private static final long END = 1_700_000_001_000L;

  @TempDir Path directory;

  @Test
  void eachWindowsRowsAndTheFirstLookThatFoundItsFinalRow() throws Exception {
    Path rows = directory.resolve("rows.json");
    FinalRowWatcher watcher = new FinalRowWatcher(rows);
    // (1) No file yet: nothing.
    watcher.look(1);
    assertThat(watcher.windows().size(), equalTo(0));
    // (2) An EARLY row, and half of the next line: one row, no final one yet.
    String onTime = MetricsRows.row("22:13:21", "es_sink", "ON_TIME", true);
    Files.writeString(
        rows, MetricsRows.row("22:13:21", "es_sink", "EARLY", false) + onTime.substring(0, 20));
    watcher.look(2);
    FinalRowWatcher.Window window = watcher.windows().get("idx_0|es_sink|" + END);
    assertThat(window.rows, equalTo(1));
    assertThat(window.finalSeenAt, equalTo(-1L));
    // (3) The rest of the line: the final row, first seen at this look.
    Files.writeString(rows, onTime.substring(20), StandardOpenOption.APPEND);
    watcher.look(3);
    assertThat(window.rows, equalTo(2));
    assertThat(window.finalSeenAt, equalTo(3L));
    // (4) A hand-written job's row says nothing of panes: it is the window's final row.
    Files.writeString(
        rows,
        "{\"index_name\":\"idx_0\",\"event_time_log\":\"2023-11-14 22:13:21\",\"op_type\":\"kafka_sink\",\"count_result\":1}\n",
        StandardOpenOption.APPEND);
    watcher.look(4);
    assertThat(watcher.windows().get("idx_0|kafka_sink|" + END).finalSeenAt, equalTo(4L));
  }
}
