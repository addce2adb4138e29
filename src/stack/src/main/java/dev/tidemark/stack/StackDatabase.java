package dev.tidemark.stack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;

/**
 * The stack's PostgreSQL server ({@link PostgresNode}): its data in {@code DIR/postgres}, its login
 * in {@code DIR/jdbc.properties} (user {@code postgres}, a new password each start, readable by the
 * stack's user alone), and {@code stack psql}, which runs a statement in its {@code tidemark}
 * database through PostgreSQL's JDBC driver.
 */
final class StackDatabase {

  private StackDatabase() {}

  /**
   * Starts the server of the stack in {@code directory} on {@code port}, logging to {@code log}.
   */
  static PostgresNode start(Path directory, int port, Path log)
      throws IOException, InterruptedException {
    String password = UUID.randomUUID().toString();
    PostgresNode postgres = PostgresNode.start(directory.resolve("postgres"), port, password, log);
    postgres.writeLogin(login(directory));
    return postgres;
  }

  /** The login of the stack in {@code directory}, a {@code --jdbcProperties} file. */
  static Path login(Path directory) {
    return directory.resolve("jdbc.properties");
  }

  /**
   * Runs {@code sql} in the database at {@code url}, logging in with {@code login}, and prints its
   * rows, or how many it changed.
   *
   * @throws IllegalStateException with PostgreSQL's reason when it refuses the statement
   */
  static void psql(String url, Path login, String sql) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(login)) {
      properties.load(in);
    }
    try (Connection connection = DriverManager.getConnection(url, properties);
        Statement statement = connection.createStatement()) {
      if (statement.execute(sql)) {
        try (ResultSet rows = statement.getResultSet()) {
          System.out.println(ResultText.of(rows));
        }
      } else {
        System.out.println(statement.getUpdateCount() + " rows");
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "PostgreSQL: " + e.getMessage().lines().findFirst().orElse(""), e);
    }
  }
}
