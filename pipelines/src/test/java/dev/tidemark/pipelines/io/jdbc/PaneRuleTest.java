package dev.tidemark.pipelines.io.jdbc;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.pipelines.PostgresServer;
import dev.tidemark.pipelines.SharedPostgresServer;
import dev.tidemark.pipelines.io.ColumnKind;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The pane rule, as the table keeps it, over random orders of panes: several keys' panes
 * interleaved in any order, restores that write again what was written since some point, a second
 * run that writes everything again, all cut into random batches and written by {@link RowBatch} and
 * {@link TableWriter} to a real PostgreSQL table. The row each key is left with is always its final
 * pane, or its highest pane where none is final.
 */
@ExtendWith(SharedPostgresServer.class)
class PaneRuleTest {

  private static final TableLayout COUNTS =
      TableLayout.panes(
          List.of(TableColumn.of("key", ColumnKind.TEXT)),
          List.of(TableColumn.of("count", ColumnKind.BIGINT)));

  private static final long WINDOW = 1_586_489_565_000L;
  private static final int TRIALS = 200;

  @Test
  void theRowLeftIsTheFinalPaneOrTheHighestWhereNoneIsFinal(PostgresServer server)
      throws Exception {
    server.execute(
        "CREATE TABLE pane_rule (key text, window_start timestamptz(3),"
            + " window_end timestamptz(3), count bigint, timing text, pane bigint, final boolean,"
            + " PRIMARY KEY (key, window_start, window_end))");
    TableWriter writer = new TableWriter(new PostgresDialect(), "pane_rule");
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    try (Connection connection = server.connect()) {
      for (int trial = 0; trial < TRIALS; trial++) {
        connection.setAutoCommit(true);
        connection.createStatement().execute("TRUNCATE pane_rule");
        Map<String, String> expected = new TreeMap<>();
        List<String> written = writes(random, expected);
        List<String> batches = new ArrayList<>();
        int from = 0;
        while (from < written.size()) {
          int to = Math.min(written.size(), from + 1 + random.nextInt(6));
          RowBatch batch = new RowBatch(COUNTS);
          for (String line : written.subList(from, to)) {
            batch.add(RowValues.of(COUNTS, line, null), false);
          }
          writer.write(connection, batch);
          batches.add(written.subList(from, to).size() + "");
          from = to;
        }
        Map<String, String> left = new TreeMap<>();
        for (String row :
            server.rows("SELECT key, count, pane, final FROM pane_rule ORDER BY key")) {
          String[] columns = row.split("\\|");
          left.put(columns[0], columns[1] + "," + columns[2] + "," + columns[3]);
        }
        assertThat(
            "seed " + seed + ", trial " + trial + ": " + written + " in batches of " + batches,
            left,
            equalTo(expected));
      }
    }
  }

  /**
   * The panes of a few keys' windows in any order, with restores' and a second run's repeats, as
   * JSON lines; {@code expected} gets each key's newest pane by the rule. A key's panes have
   * distinct indices, and any of them may be final: a restore or a second run with other options
   * may number its panes otherwise than the run before (an {@code --emit=final} run's final pane is
   * 0), and the table must still keep a final pane over an EARLY one of a higher index.
   */
  private static List<String> writes(Random random, Map<String, String> expected) {
    List<String> once = new ArrayList<>();
    for (int k = 0; k < 1 + random.nextInt(4); k++) {
      String key = "k" + k;
      List<Integer> indices = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5, 6, 7));
      Collections.shuffle(indices, random);
      String newest = null;
      long newestRank = -1;
      for (int pane : indices.subList(0, 1 + random.nextInt(indices.size()))) {
        boolean isFinal = random.nextInt(3) == 0;
        long count = pane * 10L + (isFinal ? 1 : 0);
        once.add(line(key, count, pane, isFinal));
        long rank = (isFinal ? 100 : 0) + pane;
        if (rank > newestRank) {
          newestRank = rank;
          newest = count + "," + pane + "," + isFinal;
        }
      }
      expected.put(key, newest);
    }
    Collections.shuffle(once, random);
    List<String> written = new ArrayList<>();
    for (int i = 0; i < once.size(); i++) {
      written.add(once.get(i));
      if (random.nextInt(5) == 0) {
        // A restore: what was written since a checkpoint some rows back is written again.
        written.addAll(once.subList(random.nextInt(i + 1), i + 1));
      }
    }
    if (random.nextBoolean()) {
      // A second run over the same input, in another order.
      List<String> again = new ArrayList<>(once);
      Collections.shuffle(again, random);
      written.addAll(again);
    }
    return written;
  }

  private static String line(String key, long count, int pane, boolean last) {
    return "{\"key\":\""
        + key
        + "\",\"count\":"
        + count
        + ",\"windowStart\":"
        + WINDOW
        + ",\"windowEnd\":"
        + (WINDOW + 5000)
        + ",\"timing\":\""
        + (last ? "ON_TIME" : "EARLY")
        + "\",\"pane\":"
        + pane
        + ",\"final\":"
        + last
        + "}";
  }
}
