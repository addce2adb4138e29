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
import java.util.Properties;
import org.junit.jupiter.api.Test;

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
          ResultSet rows = statement.executeQuery("SELECT n FROM t")) {
        rows.next();
        assertThat(rows.getInt(1), is(7));
      }
      Properties wrong = node.superuser();
      wrong.setProperty("password", "guess");
      SQLException refused =
          assertThrows(SQLException.class, () -> DriverManager.getConnection(node.url(), wrong));
      assertThat(refused.getSQLState(), is("28P01"));
    } finally {
      new ProcessBuilder("rm", "-rf", directory.toString()).start().waitFor();
    }
  }
}
