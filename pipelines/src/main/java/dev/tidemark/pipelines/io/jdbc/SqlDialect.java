package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.io.ColumnKind;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.io.Serializable;
import java.sql.SQLException;
import java.util.List;

/**
 * What differs from one SQL database to the next, for a table sink: column types, the statements
 * that create a table and write a batch of rows in one round trip, and which of the database's
 * errors pass and which are a row's own. PostgreSQL's is {@link PostgresDialect}; another database
 * is another implementation of this interface.
 */
public interface SqlDialect extends Serializable {

  /** The column type that holds {@code kind}'s values, for a table tidemark creates. */
  String typeOf(ColumnKind kind);

  /**
   * Whether a column of the database's type {@code databaseType} (as its JDBC driver names it) can
   * hold {@code kind}'s values, in a table a user made.
   */
  boolean holds(ColumnKind kind, String databaseType);

  /**
   * Creates {@code table} with {@code layout}'s columns and key, on a server of major version
   * {@code serverVersion} (as its JDBC driver gives it).
   */
  String createTable(String table, TableLayout layout, int serverVersion);

  /**
   * Writes a batch of panes, each replacing its key's row only if it is newer: final beats
   * non-final, then a higher pane a lower one. Its parameters are one array of text per column of
   * {@code layout.columns()}, in that order, holding the rows' values ({@link ColumnText}): one
   * statement for a batch of any size.
   */
  String upsertPanes(String table, TableLayout layout);

  /**
   * Adds a batch of records, each only if no row of its origin is there yet; parameters as for
   * {@link #upsertPanes}.
   */
  String insertRecords(String table, TableLayout layout);

  /**
   * A query of one row and one boolean column: whether the user may write {@code table} as {@code
   * layout} needs (add rows, and for panes also replace and delete them); its one parameter is the
   * table's name.
   */
  String mayWrite(TableLayout layout);

  /**
   * Deletes the rows of a batch of keys; its parameters are one array of text per column of {@code
   * key}, as for {@link #upsertPanes}.
   */
  String deleteKeys(String table, List<TableColumn> key);

  /**
   * Whether {@code error} passes: the database is unreachable, restarting or overloaded, so the
   * same write succeeds later.
   */
  boolean isTransient(SQLException error);

  /**
   * Whether {@code error} is a row's own: a value the table's column does not take, so the other
   * rows of its batch can be written without it.
   */
  boolean isRowRefusal(SQLException error);
}
