package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.io.ColumnKind;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * PostgreSQL's SQL for a table sink: a batch is one {@code INSERT ... SELECT} of {@code unnest}
 * over an array of text per column, panes through {@code ON CONFLICT ... DO UPDATE ... WHERE} the
 * pane rule holds, records through {@code ON CONFLICT DO NOTHING}; every name is quoted.
 */
public final class PostgresDialect implements SqlDialect {

  private static final long serialVersionUID = 1L;

  /**
   * Errors that pass: the server restarting or shutting down ({@code 57P01} to {@code 57P03}), too
   * many connections, and a serialization failure or deadlock, which the next try does not meet.
   */
  private static final Set<String> TRANSIENT_STATES =
      Set.of("57P01", "57P02", "57P03", "53300", "40001", "40P01");

  /** The first major version of PostgreSQL whose unique keys may hold {@code NULL} as a value. */
  private static final int NULLS_NOT_DISTINCT_SINCE = 15;

  /** A row's own errors, beside the data exceptions of class {@code 22}: nulls and checks. */
  private static final Set<String> ROW_STATES = Set.of("23502", "23514");

  @Override
  public String typeOf(ColumnKind kind) {
    return switch (kind) {
      case TEXT -> "text";
      case INTEGER -> "integer";
      case BIGINT -> "bigint";
      case REAL -> "real";
      case DOUBLE -> "double precision";
      case DECIMAL -> "numeric";
      case BOOLEAN -> "boolean";
      case TIMESTAMP -> "timestamp(3)";
      case INSTANT -> "timestamptz(3)";
      case DATE -> "date";
    };
  }

  @Override
  public boolean holds(ColumnKind kind, String databaseType) {
    Set<String> types =
        switch (kind) {
          case TEXT -> Set.of("text", "varchar", "bpchar");
          case INTEGER -> Set.of("int4", "int8", "numeric");
          case BIGINT -> Set.of("int8", "numeric");
          case REAL -> Set.of("float4", "float8", "numeric");
          case DOUBLE -> Set.of("float8", "numeric");
          case DECIMAL -> Set.of("numeric");
          case BOOLEAN -> Set.of("bool");
          case TIMESTAMP -> Set.of("timestamp", "timestamptz");
          case INSTANT -> Set.of("timestamptz", "timestamp");
          case DATE -> Set.of("date", "timestamp", "timestamptz");
        };
    return types.contains(databaseType);
  }

  /**
   * A panes table's key is unique with {@code NULL}s not distinct where the server has that
   * (PostgreSQL 15 and later), so that a SQL group whose {@code GROUP BY} column is {@code NULL} is
   * a row of its own, replaced by its later panes as any other; an older server's primary key
   * refuses such a row, which becomes a dead letter. A records table's origin is unique, and a
   * record without one is written each time.
   */
  @Override
  public String createTable(String table, TableLayout layout, int serverVersion) {
    String columns =
        layout.columns().stream()
            .map(column -> quote(column.name()) + " " + typeOf(column.kind()))
            .collect(Collectors.joining(", "));
    String key = names(layout.key());
    return "CREATE TABLE "
        + table
        + " ("
        + columns
        + ", "
        + (layout.rows() != TableLayout.Rows.PANES
            ? "UNIQUE ("
            : serverVersion >= NULLS_NOT_DISTINCT_SINCE
                ? "UNIQUE NULLS NOT DISTINCT ("
                : "PRIMARY KEY (")
        + key
        + "))";
  }

  @Override
  public String upsertPanes(String table, TableLayout layout) {
    String updates =
        layout.values().stream()
            .map(column -> quote(column.name()) + " = EXCLUDED." + quote(column.name()))
            .collect(Collectors.joining(", "));
    return insert(table, layout)
        + " ON CONFLICT ("
        + names(layout.key())
        + ") DO UPDATE SET "
        + updates
        + " WHERE (old.\"final\", old.\"pane\") < (EXCLUDED.\"final\", EXCLUDED.\"pane\")";
  }

  @Override
  public String insertRecords(String table, TableLayout layout) {
    return insert(table, layout) + " ON CONFLICT (" + names(layout.key()) + ") DO NOTHING";
  }

  @Override
  public String mayWrite(TableLayout layout) {
    // has_table_privilege with a list of rights holds if any one of them is held: ask for each.
    String rights =
        layout.rows() == TableLayout.Rows.PANES
            ? "'SELECT', 'INSERT', 'UPDATE', 'DELETE'"
            : "'SELECT', 'INSERT'";
    return "SELECT bool_and(has_table_privilege(?::text, p)) FROM unnest(ARRAY["
        + rights
        + "]) AS p";
  }

  /**
   * Matches each key column with {@code IS NOT DISTINCT FROM}, so that a {@code NULL} group's
   * withdrawn session is deleted as any other's. Deletes are only for sessions that merged away.
   */
  @Override
  public String deleteKeys(String table, List<TableColumn> key) {
    String matches =
        key.stream()
            .map(
                column ->
                    "old."
                        + quote(column.name())
                        + " IS NOT DISTINCT FROM gone."
                        + quote(column.name())
                        + "::"
                        + typeOf(column.kind()))
            .collect(Collectors.joining(" AND "));
    return "DELETE FROM " + table + " AS old USING " + unnest(key, "gone") + " WHERE " + matches;
  }

  @Override
  public boolean isTransient(SQLException error) {
    String state = error.getSQLState();
    return error instanceof SQLTransientException
        || error instanceof SQLRecoverableException
        || (state != null && (state.startsWith("08") || TRANSIENT_STATES.contains(state)));
  }

  @Override
  public boolean isRowRefusal(SQLException error) {
    String state = error.getSQLState();
    return state != null && (state.startsWith("22") || ROW_STATES.contains(state));
  }

  /**
   * {@code INSERT INTO table AS old (...) SELECT ... FROM unnest(...)}: the rows as one array of
   * text per column, each value cast to its column's type. One text whatever the rows, so the
   * driver prepares it on the server once per connection, and binding a batch costs one parameter
   * per column rather than one per value.
   */
  private String insert(String table, TableLayout layout) {
    List<TableColumn> columns = layout.columns();
    String casts =
        columns.stream()
            .map(column -> "rows." + quote(column.name()) + "::" + typeOf(column.kind()))
            .collect(Collectors.joining(", "));
    return "INSERT INTO "
        + table
        + " AS old ("
        + names(columns)
        + ") SELECT "
        + casts
        + " FROM "
        + unnest(columns, "rows");
  }

  /** {@code unnest(?::text[], ...) AS alias(column, ...)}: a row per element of the arrays. */
  private static String unnest(List<TableColumn> columns, String alias) {
    return "unnest("
        + String.join(", ", Collections.nCopies(columns.size(), "?::text[]"))
        + ") AS "
        + alias
        + "("
        + names(columns)
        + ")";
  }

  private static String names(List<TableColumn> columns) {
    return columns.stream().map(column -> quote(column.name())).collect(Collectors.joining(", "));
  }

  private static String quote(String name) {
    return '"' + name + '"';
  }
}
