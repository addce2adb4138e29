package dev.tidemark.benchmarks;

import dev.tidemark.pipelines.cli.Tidemark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

/**
 * tidemark's {@code metrics} as {@link TidemarkMetricsRun} runs it, its results into a PostgreSQL
 * table of a new name ({@code --sink=jdbc:postgresql://...}) on the server the benchmark started
 * ({@link BenchmarkDatabase}), whose address and login the JVM gets as the system properties {@link
 * #URL} and {@link #LOGIN}. The run counts what the table's final rows add up to, prints how many
 * rows the table holds ({@link #ROWS} line), and drops the table.
 */
final class TidemarkTableRun {

  /** The system property with the database's JDBC URL. */
  static final String URL = "tidemark.benchmark.jdbcUrl";

  /** The system property with the {@code --jdbcProperties} file. */
  static final String LOGIN = "tidemark.benchmark.jdbcProperties";

  /** The start of the line that says how many rows the table holds. */
  static final String ROWS = "ROWS ";

  private TidemarkTableRun() {}

  static Result run(Path input, long lines, int parallelism, Query query) throws Exception {
    String url = System.getProperty(URL);
    String login = System.getProperty(LOGIN);
    String table = "benchmark_" + Long.toUnsignedString(System.nanoTime(), 36);
    List<String> arguments =
        TidemarkMetricsRun.arguments("metrics", input, url + "?table=" + table, parallelism, query);
    arguments.add("--jdbcProperties=" + login);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long start = System.nanoTime();
    int exitCode =
        Tidemark.run(
            arguments.toArray(String[]::new),
            System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (exitCode != 0) {
      throw new IllegalStateException(
          "metrics exited " + exitCode + ": " + err.toString(StandardCharsets.UTF_8));
    }
    Properties properties = new Properties();
    try (var in = java.nio.file.Files.newInputStream(Path.of(login))) {
      properties.load(in);
    }
    try (Connection connection = DriverManager.getConnection(url, properties);
        Statement statement = connection.createStatement()) {
      long counted = sum(statement, "SELECT sum(count_result) FROM " + table + " WHERE final");
      System.out.println(ROWS + sum(statement, "SELECT count(*) FROM " + table));
      statement.execute("DROP TABLE " + table);
      return Result.now(lines, millis, query.records(counted));
    }
  }

  private static long sum(Statement statement, String query) throws SQLException {
    try (ResultSet result = statement.executeQuery(query)) {
      result.next();
      return result.getLong(1);
    }
  }
}
