package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Writes a {@link RowBatch} to its table at once: the deletes, then the rows, each one statement
 * whatever the batch's size ({@link SqlDialect#upsertPanes}), in one transaction when there are
 * both. When the database refuses a row of its own ({@link SqlDialect#isRowRefusal}), the batch is
 * written again row by row, and the rows it refuses are given back with its reason.
 */
final class TableWriter {

  private final SqlDialect dialect;
  private final String table;

  TableWriter(SqlDialect dialect, String table) {
    this.dialect = dialect;
    this.table = table;
  }

  /**
   * Writes {@code batch} on {@code connection}, committing it; returns the rows the database
   * refused, each with its reason (none, mostly).
   *
   * @throws SQLException when the write fails for another reason than a row of its own
   */
  Map<@Nullable Object[], String> write(Connection connection, RowBatch batch) throws SQLException {
    // A batch without deletes is one statement, atomic by itself: no BEGIN and COMMIT for it.
    boolean oneStatement = batch.deletes().isEmpty();
    connection.setAutoCommit(oneStatement);
    try {
      writeAll(connection, batch.layout(), batch.deletes(), batch.rows());
      if (!oneStatement) {
        connection.commit();
      }
      return Map.of();
    } catch (SQLException e) {
      if (!oneStatement) {
        rollback(connection, e);
      }
      if (!dialect.isRowRefusal(e)) {
        throw e;
      }
    }
    connection.setAutoCommit(false);
    return writeOneByOne(connection, batch);
  }

  /**
   * Rolls back the transaction that {@code failure} broke; a connection that is gone cannot, and
   * {@code failure} says why.
   */
  private static void rollback(Connection connection, SQLException failure) {
    try {
      connection.rollback();
    } catch (SQLException gone) {
      failure.addSuppressed(gone);
    }
  }

  private Map<@Nullable Object[], String> writeOneByOne(Connection connection, RowBatch batch)
      throws SQLException {
    Map<@Nullable Object[], String> refused = new LinkedHashMap<>();
    writeAll(connection, batch.layout(), batch.deletes(), List.of());
    connection.commit();
    for (@Nullable Object[] row : batch.rows()) {
      try {
        writeAll(connection, batch.layout(), List.of(), List.<@Nullable Object[]>of(row));
        connection.commit();
      } catch (SQLException e) {
        rollback(connection, e);
        if (!dialect.isRowRefusal(e)) {
          throw e;
        }
        refused.put(row, e.getMessage());
      }
    }
    return refused;
  }

  private void writeAll(
      Connection connection,
      TableLayout layout,
      Collection<List<@Nullable Object>> deletes,
      Collection<@Nullable Object[]> rows)
      throws SQLException {
    List<TableColumn> key = layout.key();
    if (!deletes.isEmpty()) {
      List<@Nullable Object[]> keys = new ArrayList<>();
      for (List<@Nullable Object> values : deletes) {
        keys.add(values.toArray());
      }
      execute(connection, dialect.deleteKeys(table, key), keys, key.size());
    }
    if (!rows.isEmpty()) {
      String sql =
          layout.rows() == TableLayout.Rows.PANES
              ? dialect.upsertPanes(table, layout)
              : dialect.insertRecords(table, layout);
      execute(connection, sql, rows, layout.columns().size());
    }
  }

  /** Runs {@code sql} with one array of text per column of {@code rows}. */
  private static void execute(
      Connection connection, String sql, Collection<@Nullable Object[]> rows, int columns)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int c = 0; c < columns; c++) {
        @Nullable String[] texts = new String[rows.size()];
        int r = 0;
        for (@Nullable Object[] row : rows) {
          texts[r++] = ColumnText.of(row[c]);
        }
        statement.setArray(c + 1, connection.createArrayOf("text", texts));
      }
      statement.executeUpdate();
    }
  }
}
