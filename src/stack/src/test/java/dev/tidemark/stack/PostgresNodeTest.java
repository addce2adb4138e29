package dev.tidemark.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A real PostgreSQL server from PostgreSQL's own binaries, started as the stack and the tests start
 * it (as {@code nobody} when they run as root): it logs in by password, keeps its data through a
 * restart, and refuses a wrong password.
 */
class PostgresNodeTest {

  @Test
  void aServerKeepsItsDataThroughARestartAndRefusesAWrongPassword() throws Exception {
    Path directory = Files.createTempDirectory(Path.of("/tmp"), "tidemark-postgres-test-");
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (PostgresNode node =
        PostgresNode.start(directory, port, "s3cret", directory.resolve("postgres.log"))) {
      node.execute(PostgresNode.DATABASE, "CREATE TABLE t (n int)", "INSERT INTO t VALUES (7)");
      node.stop();
      node.startAgain();
      try (Connection connection = DriverManager.getConnection(node.url(), node.superuser());
          Statement statement = connection.createStatement();
          ResultSet rows =
              statement.executeQuery("SELECT n, 'seven' AS name, NULL AS none FROM t")) {
        // As stack psql prints them.
        assertThat(
            ResultText.of(rows),
            is(" n | name  | none\n---+-------+------\n 7 | seven | \n(1 row)"));
      }
      Properties wrong = node.superuser();
      wrong.setProperty("password", "guess");
      SQLException refused =
          assertThrows(SQLException.class, () -> DriverManager.getConnection(node.url(), wrong));
      assertThat(refused.getSQLState(), is("28P01"));
    } finally {
      try (Stream<Path> paths = Files.walk(directory)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }
}
