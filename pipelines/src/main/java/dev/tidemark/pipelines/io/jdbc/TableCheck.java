package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Readies a table sink's table before the job starts, so that every mistake of configuration is one
 * line and exit 2 within seconds rather than a failing task: logs in (a wrong password, a host
 * where nothing answers, a database that does not exist), creates the table if there is none, and
 * otherwise checks that it fits the output (every column there with a type that holds its values,
 * the key as the table's primary key or a unique index) and that the user may write it. tidemark
 * never drops or alters a table.
 */
final class TableCheck {

  /** Seconds the check waits for the server to answer, for each step: connect, log in, a query. */
  private static final String TIMEOUT_SECONDS = "4";

  private final String option;
  private final JdbcAddress address;
  private final SqlDialect dialect;

  TableCheck(String option, JdbcAddress address, SqlDialect dialect) {
    this.option = option;
    this.address = address;
    this.dialect = dialect;
  }

  /**
   * Readies the table for {@code layout}, logging in with {@code properties}.
   *
   * @throws ConfigurationException naming the option and what is wrong
   */
  void ready(TableLayout layout, Map<String, String> properties) {
    Properties login = new Properties();
    login.setProperty("connectTimeout", TIMEOUT_SECONDS);
    login.setProperty("loginTimeout", TIMEOUT_SECONDS);
    login.setProperty("socketTimeout", TIMEOUT_SECONDS);
    login.putAll(properties);
    try (Connection connection = DriverManager.getConnection(address.url(), login)) {
      String[] schemaAndName = schemaAndName(connection);
      Map<String, String> columns = columns(connection.getMetaData(), schemaAndName);
      if (columns.isEmpty()) {
        create(connection, layout);
      } else {
        checkColumns(layout, columns);
        checkKey(connection.getMetaData(), schemaAndName, layout);
      }
      checkRights(connection, layout, login.getProperty("user", ""));
    } catch (SQLException e) {
      throw refused(LoginErrors.line(address, e));
    }
  }

  private String[] schemaAndName(Connection connection) throws SQLException {
    String table = address.table();
    int dot = table.indexOf('.');
    if (dot >= 0) {
      return new String[] {table.substring(0, dot), table.substring(dot + 1)};
    }
    try (Statement statement = connection.createStatement();
        ResultSet schema = statement.executeQuery("SELECT current_schema()")) {
      schema.next();
      return new String[] {schema.getString(1), table};
    }
  }

  private static Map<String, String> columns(DatabaseMetaData meta, String[] schemaAndName)
      throws SQLException {
    Map<String, String> types = new HashMap<>();
    try (ResultSet columns = meta.getColumns(null, schemaAndName[0], schemaAndName[1], null)) {
      while (columns.next()) {
        types.put(columns.getString("COLUMN_NAME"), columns.getString("TYPE_NAME"));
      }
    }
    return types;
  }

  private void create(Connection connection, TableLayout layout) {
    try (Statement statement = connection.createStatement()) {
      int serverVersion = connection.getMetaData().getDatabaseMajorVersion();
      statement.execute(dialect.createTable(address.table(), layout, serverVersion));
    } catch (SQLException e) {
      throw refused("cannot create table " + address.table() + ": " + LoginErrors.firstLine(e));
    }
  }

  private void checkColumns(TableLayout layout, Map<String, String> types) {
    for (TableColumn column : layout.columns()) {
      String type = types.get(column.name());
      if (type == null) {
        throw refused(
            "table "
                + address.table()
                + " has no column "
                + column.name()
                + " ("
                + dialect.typeOf(column.kind())
                + "); tidemark never alters a table: add the column, or name a new table");
      }
      if (!dialect.holds(column.kind(), type)) {
        throw refused(
            "column "
                + column.name()
                + " of table "
                + address.table()
                + " is "
                + type
                + ", which cannot hold its values; tidemark writes "
                + dialect.typeOf(column.kind()));
      }
    }
  }

  private void checkKey(DatabaseMetaData meta, String[] schemaAndName, TableLayout layout)
      throws SQLException {
    Set<String> key = layout.key().stream().map(TableColumn::name).collect(Collectors.toSet());
    Map<String, Set<String>> uniqueIndexes = new HashMap<>();
    try (ResultSet indexes =
        meta.getIndexInfo(null, schemaAndName[0], schemaAndName[1], true, false)) {
      while (indexes.next()) {
        String column = indexes.getString("COLUMN_NAME");
        if (column != null) {
          uniqueIndexes
              .computeIfAbsent(indexes.getString("INDEX_NAME"), name -> new HashSet<>())
              .add(column);
        }
      }
    }
    if (!uniqueIndexes.containsValue(key)) {
      throw refused(
          "table "
              + address.table()
              + " needs "
              + (layout.rows() == TableLayout.Rows.PANES ? "the primary key (" : "a unique (")
              + String.join(", ", names(layout.key()))
              + "), so that a replay replaces rows rather than adding them; tidemark never alters"
              + " a table: add it, or name a new table");
    }
  }

  private void checkRights(Connection connection, TableLayout layout, String user)
      throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(dialect.mayWrite(layout))) {
      query.setString(1, address.table());
      try (ResultSet may = query.executeQuery()) {
        may.next();
        if (!may.getBoolean(1)) {
          throw refused(
              "user '"
                  + user
                  + "' may not write table "
                  + address.table()
                  + (layout.rows() == TableLayout.Rows.PANES
                      ? " (tidemark selects, inserts, updates and deletes its rows)"
                      : " (tidemark selects and inserts its rows)"));
        }
      }
    }
  }

  private static List<String> names(List<TableColumn> columns) {
    return columns.stream().map(TableColumn::name).toList();
  }

  private ConfigurationException refused(String what) {
    return new ConfigurationException("--" + option + ": " + what);
  }
}
