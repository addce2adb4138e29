package dev.tidemark.pipelines;

import dev.tidemark.stack.PostgresNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for a test ({@link PostgresNode#startFresh}): on a free loopback port,
 * its data in a new directory under {@code /tmp} (which the server's user can reach when the tests
 * run as root), with a random superuser password. {@link #close()} stops it and deletes the
 * directory.
 */
public final class PostgresServer implements AutoCloseable {

  private final PostgresNode node;

  private PostgresServer(PostgresNode node) {
    this.node = node;
  }

  public static PostgresServer start() throws IOException, InterruptedException {
    return new PostgresServer(PostgresNode.startFresh("tidemark-postgres-test-"));
  }

  /** The sink URL of {@code table} in the {@code tidemark} database. */
  public String sink(String table) {
    return node.url() + "?table=" + table;
  }

  int port() {
    return node.port();
  }

  /** The superuser's password: a test checks that no output shows it. */
  public String password() {
    return node.superuser().getProperty("password");
  }

  /** A {@code --jdbcProperties} file in {@code folder} that logs in as the superuser. */
  Path superuserProperties(Path folder) throws IOException {
    return node.writeLogin(Files.createTempFile(folder, "jdbc-", ".properties"));
  }

  /** A {@code --jdbcProperties} file in {@code folder} with {@code lines}. */
  static Path properties(Path folder, String... lines) throws IOException {
    Path file = Files.createTempFile(folder, "jdbc-", ".properties");
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    return file;
  }

  /** Runs {@code statements} as the superuser in the {@code tidemark} database. */
  public void execute(String... statements) {
    node.execute(PostgresNode.DATABASE, statements);
  }

  /** The rows of {@code query}, each as its columns' values joined by {@code |}, in its order. */
  public List<String> rows(String query) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection(node.url(), node.superuser());
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(query)) {
      ResultSetMetaData columns = result.getMetaData();
      while (result.next()) {
        List<String> values = new ArrayList<>();
        for (int c = 1; c <= columns.getColumnCount(); c++) {
          values.add(String.valueOf(result.getObject(c)));
        }
        rows.add(String.join("|", values));
      }
    }
    return rows;
  }

  /** A connection as the superuser to the {@code tidemark} database. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(node.url(), node.superuser());
  }

  /** The server's major version, as its JDBC driver gives it. */
  public int majorVersion() throws SQLException {
    try (Connection connection = connect()) {
      return connection.getMetaData().getDatabaseMajorVersion();
    }
  }

  /** The JDBC URL of the {@code tidemark} database, and the superuser's login. */
  String url() {
    return node.url();
  }

  Properties superuser() {
    return node.superuser();
  }

  /** Stops the server, as a database restart or crash takes it away; its data stays. */
  void stop() throws InterruptedException {
    node.stop();
  }

  /** Starts it again after {@link #stop()}, on the same port, with its data. */
  void startAgain() throws IOException, InterruptedException {
    node.startAgain();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    node.close();
    try (Stream<Path> paths = Files.walk(node.directory())) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
