package dev.tidemark.pipelines.io.jdbc;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.pipelines.PostgresServer;
import dev.tidemark.pipelines.SharedPostgresServer;
import dev.tidemark.pipelines.io.ColumnKind;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What a table sink's batches do to a real PostgreSQL table, beside the pane rule. */
@ExtendWith(SharedPostgresServer.class)
class TableWriterTest {

  private static final TableLayout SESSIONS =
      TableLayout.panes(
          List.of(TableColumn.of("key", ColumnKind.TEXT)),
          List.of(TableColumn.of("count", ColumnKind.BIGINT)));

  private final PostgresDialect dialect = new PostgresDialect();

  @Test
  void aSessionThatMergedAwayDeletesItsRowWhicheverBatchItsRowCameIn(PostgresServer server)
      throws Exception {
    server.execute(dialect.createTable("merged_sessions", SESSIONS, server.majorVersion()));
    TableWriter writer = new TableWriter(dialect, "merged_sessions");
    try (Connection connection = server.connect()) {
      RowBatch first = new RowBatch(SESSIONS);
      first.add(session("a", 1000, 2000, 1, 0, false), false);
      first.add(session("a", 5000, 6000, 1, 0, false), false);
      writer.write(connection, first);
      // The two sessions merge into [1000, 6000): each of the old ones is withdrawn; in the same
      // batch, a later session of the same bounds as a withdrawn one comes back.
      RowBatch second = new RowBatch(SESSIONS);
      second.add(session("a", 1000, 2000, 1, 1, false), true);
      second.add(session("a", 5000, 6000, 1, 1, false), true);
      second.add(session("a", 1000, 6000, 2, 0, true), false);
      second.add(session("b", 1000, 2000, 1, 0, false), true);
      second.add(session("b", 1000, 2000, 3, 0, true), false);
      writer.write(connection, second);
    }
    assertThat(
        server.rows(
            "SELECT key, (extract(epoch FROM window_start) * 1000)::bigint,"
                + " (extract(epoch FROM window_end) * 1000)::bigint, count, final"
                + " FROM merged_sessions ORDER BY key, window_start"),
        equalTo(List.of("a|1000|6000|2|true", "b|1000|2000|3|true")));
  }

  @Test
  void aRowTheTableRefusesIsGivenBackWithTheReasonAndTheOthersAreWritten(PostgresServer server)
      throws Exception {
    // A table the user made, with a column too short for one key.
    server.execute(
        "CREATE TABLE short_keys (key varchar(3), window_start timestamptz, window_end"
            + " timestamptz, count bigint, timing text, pane bigint, final boolean,"
            + " PRIMARY KEY (key, window_start, window_end))");
    TableWriter writer = new TableWriter(dialect, "short_keys");
    Map<@Nullable Object[], String> refused;
    try (Connection connection = server.connect()) {
      RowBatch batch = new RowBatch(SESSIONS);
      batch.add(session("abc", 0, 1000, 1, 0, true), false);
      batch.add(session("abcdef", 0, 1000, 2, 0, true), false);
      batch.add(session("xyz", 0, 1000, 3, 0, true), false);
      refused = writer.write(connection, batch);
    }
    assertThat(refused.size(), equalTo(1));
    assertThat(refused.keySet().iterator().next()[0], equalTo("abcdef"));
    assertThat(
        refused.values().iterator().next(), containsString("value too long for type character"));
    assertThat(
        server.rows("SELECT key, count FROM short_keys ORDER BY key"),
        equalTo(List.of("abc|1", "xyz|3")));
  }

  /**
   * A SQL group whose key is {@code NULL} is a row of its own in a table tidemark makes: a
   * restore's repeat of its pane leaves one row, a later pane replaces it, and its session that
   * merged away is deleted, as for any other key.
   */
  @Test
  void aGroupWhoseKeyIsNullIsARowOfItsOwn(PostgresServer server) throws Exception {
    server.execute(dialect.createTable("null_keys", SESSIONS, server.majorVersion()));
    TableWriter writer = new TableWriter(dialect, "null_keys");
    try (Connection connection = server.connect()) {
      for (int repeat = 0; repeat < 2; repeat++) {
        RowBatch first = new RowBatch(SESSIONS);
        first.add(session(null, 0, 1000, 1, 0, false), false);
        first.add(session(null, 5000, 6000, 1, 0, false), false);
        first.add(session("a", 0, 1000, 4, 0, true), false);
        assertThat(writer.write(connection, first).size(), equalTo(0));
      }
      RowBatch second = new RowBatch(SESSIONS);
      second.add(session(null, 5000, 6000, 2, 1, true), false);
      second.add(session(null, 0, 1000, 1, 1, false), true);
      writer.write(connection, second);
    }
    assertThat(
        server.rows(
            "SELECT key, (extract(epoch FROM window_start) * 1000)::bigint, count, final"
                + " FROM null_keys ORDER BY key, window_start"),
        equalTo(List.of("a|0|4|true", "null|5000|2|true")));
  }

  /**
   * A primary key holds no {@code NULL}: in a table made so (by a user, or by tidemark on a server
   * older than PostgreSQL 15), a group whose key is {@code NULL} comes back with PostgreSQL's
   * reason, for the dead letters, and the batch's other rows are written.
   */
  @Test
  void aPrimaryKeyGivesBackARowWhoseGroupKeyIsNullWithTheReason(PostgresServer server)
      throws Exception {
    String olderServers = dialect.createTable("primary_keys", SESSIONS, 14);
    assertThat(olderServers, containsString("PRIMARY KEY (\"key\""));
    server.execute(olderServers);
    TableWriter writer = new TableWriter(dialect, "primary_keys");
    Map<@Nullable Object[], String> refused;
    try (Connection connection = server.connect()) {
      RowBatch batch = new RowBatch(SESSIONS);
      batch.add(session("a", 0, 1000, 1, 0, true), false);
      batch.add(session(null, 0, 1000, 2, 0, true), false);
      refused = writer.write(connection, batch);
    }
    assertThat(refused.size(), equalTo(1));
    assertThat(refused.keySet().iterator().next()[0], equalTo(null));
    assertThat(refused.values().iterator().next(), containsString("null value in column \"key\""));
    assertThat(server.rows("SELECT key, count FROM primary_keys"), equalTo(List.of("a|1")));
  }

  @Test
  void aRecordIsWrittenOncePerOriginAndOneWithoutAnOriginEachTime(PostgresServer server)
      throws Exception {
    server.execute(
        dialect.createTable("dead_once", TableLayout.DEAD_LETTERS, server.majorVersion()));
    TableWriter writer = new TableWriter(dialect, "dead_once");
    String letter = "{\"type\":\"deadLetter\",\"reason\":\"bad\",\"record\":\"x\"}";
    try (Connection connection = server.connect()) {
      for (int run = 0; run < 2; run++) {
        RowBatch batch = new RowBatch(TableLayout.DEAD_LETTERS);
        batch.add(RowValues.of(TableLayout.DEAD_LETTERS, letter, "clicks-0@8"), false);
        batch.add(RowValues.of(TableLayout.DEAD_LETTERS, letter, "clicks-0@8"), false);
        batch.add(RowValues.of(TableLayout.DEAD_LETTERS, letter, null), false);
        writer.write(connection, batch);
      }
    }
    assertThat(
        server.rows("SELECT origin, reason, record FROM dead_once ORDER BY origin"),
        equalTo(List.of("clicks-0@8|bad|x", "null|bad|x", "null|bad|x")));
  }

  private static @Nullable Object[] session(
      @Nullable String key, long start, long end, long count, int pane, boolean last) {
    return RowValues.of(
        SESSIONS,
        "{\"key\":"
            + (key == null ? "null" : "\"" + key + "\"")
            + ",\"count\":"
            + count
            + ",\"windowStart\":"
            + start
            + ",\"windowEnd\":"
            + end
            + ",\"timing\":\"ON_TIME\",\"pane\":"
            + pane
            + ",\"final\":"
            + last
            + "}",
        null);
  }
}
