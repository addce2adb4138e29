package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.io.ColumnKind;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Writes a {@link RowBatch} to its table in one transaction: the deletes, then the rows, each in as
 * few statements as the database's limit on parameters allows (one, for a bundle of up to a few
 * thousand rows). When the database refuses a row of its own ({@link SqlDialect#isRowRefusal}), the
 * batch is written again row by row, and the rows it refuses are given back with its reason.
 */
final class TableWriter {

  /** PostgreSQL takes at most 65,535 parameters in a statement; stay well below. */
  private static final int MAX_PARAMETERS = 30_000;

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
    connection.setAutoCommit(false);
    try {
      writeAll(connection, batch.layout(), batch.deletes(), batch.rows());
      connection.commit();
      return Map.of();
    } catch (SQLException e) {
      connection.rollback();
      if (!dialect.isRowRefusal(e)) {
        throw e;
      }
    }
    return writeOneByOne(connection, batch);
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
        connection.rollback();
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
    for (List<List<@Nullable Object>> chunk : chunks(new ArrayList<>(deletes), key.size())) {
      try (PreparedStatement delete =
          connection.prepareStatement(dialect.deleteKeys(table, key, chunk.size()))) {
        int parameter = 1;
        for (List<@Nullable Object> values : chunk) {
          for (int k = 0; k < key.size(); k++) {
            bind(delete, parameter++, key.get(k).kind(), values.get(k));
          }
        }
        delete.executeUpdate();
      }
    }
    List<TableColumn> columns = layout.columns();
    for (List<@Nullable Object[]> chunk : chunks(new ArrayList<>(rows), columns.size())) {
      String sql =
          layout.rows() == TableLayout.Rows.PANES
              ? dialect.upsertPanes(table, layout, chunk.size())
              : dialect.insertRecords(table, layout, chunk.size());
      try (PreparedStatement write = connection.prepareStatement(sql)) {
        int parameter = 1;
        for (@Nullable Object[] row : chunk) {
          for (int c = 0; c < columns.size(); c++) {
            bind(write, parameter++, columns.get(c).kind(), row[c]);
          }
        }
        write.executeUpdate();
      }
    }
  }

  private static <E> List<List<E>> chunks(List<E> all, int parametersEach) {
    int size = Math.max(1, MAX_PARAMETERS / Math.max(1, parametersEach));
    List<List<E>> chunks = new ArrayList<>();
    for (int from = 0; from < all.size(); from += size) {
      chunks.add(all.subList(from, Math.min(all.size(), from + size)));
    }
    return chunks;
  }

  private static void bind(
      PreparedStatement statement, int parameter, ColumnKind kind, @Nullable Object value)
      throws SQLException {
    int type =
        switch (kind) {
          case TEXT -> Types.VARCHAR;
          case INTEGER -> Types.INTEGER;
          case BIGINT -> Types.BIGINT;
          case REAL -> Types.REAL;
          case DOUBLE -> Types.DOUBLE;
          case DECIMAL -> Types.NUMERIC;
          case BOOLEAN -> Types.BOOLEAN;
          case TIMESTAMP -> Types.TIMESTAMP;
          case INSTANT -> Types.TIMESTAMP_WITH_TIMEZONE;
        };
    if (value == null) {
      statement.setNull(parameter, type);
    } else {
      statement.setObject(parameter, value, type);
    }
  }
}
