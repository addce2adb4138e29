package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.io.jdbc.JdbcAddress;
import dev.tidemark.pipelines.io.jdbc.PostgresDialect;
import dev.tidemark.pipelines.io.jdbc.TableSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Parses a {@code --sink}, {@code --lateSink} or {@code --deadLetterSink} URI into a {@link Sink},
 * checking it before the job starts: {@code stdout}, {@code file:PATH} (JSON lines, appended),
 * {@code kafka://HOST:PORT/TOPIC} or {@code jdbc:postgresql://HOST:PORT/DB?table=NAME}.
 */
public final class SinkUri {

  private static final String FORMS =
      "use stdout, file:PATH, kafka://HOST:PORT/TOPIC or jdbc:postgresql://HOST:PORT/DB?table=NAME";

  private SinkUri() {}

  /**
   * Parses {@code uri}, the value of {@code --option}; a Kafka sink gets {@code kafkaProperties}
   * and writes in transactions with {@code transactionalShards} writers, or at least once if 0; a
   * table sink logs in with {@code jdbcProperties}.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  public static Sink parse(
      String option,
      String uri,
      Map<String, String> kafkaProperties,
      int transactionalShards,
      Map<String, String> jdbcProperties) {
    String value = uri == null ? "" : uri.trim();
    if (value.startsWith("jdbc:postgresql:")) {
      return new TableSink(
          option, JdbcAddress.parse(option, value), jdbcProperties, new PostgresDialect());
    }
    if (value.startsWith("jdbc:")) {
      // Not the URL itself: its query may hold a password.
      throw new ConfigurationException(
          "--"
              + option
              + ": tidemark writes tables to PostgreSQL: jdbc:postgresql://HOST:PORT/DB?table=NAME");
    }
    if (value.equals("stdout")) {
      return new StdoutSink();
    }
    if (value.startsWith("file:")) {
      Path path = Path.of(value.substring("file:".length())).toAbsolutePath();
      Path directory = path.getParent();
      if (Files.isDirectory(path)) {
        throw new ConfigurationException(
            "--"
                + option
                + ": '"
                + path
                + "' is a directory; name a file in it, e.g. file:"
                + path.resolve("results.json"));
      }
      if (directory == null || !Files.isDirectory(directory)) {
        throw new ConfigurationException(
            "--" + option + ": cannot write '" + path + "'; its directory must exist");
      }
      return new FileSink(path);
    }
    if (value.startsWith("kafka://")) {
      KafkaAddress address = KafkaAddress.parse(option, value);
      return new KafkaSink(
          address.bootstrapServers(), address.topic(), kafkaProperties, transactionalShards);
    }
    throw new ConfigurationException("--" + option + ": '" + uri + "' is not a sink; " + FORMS);
  }
}
