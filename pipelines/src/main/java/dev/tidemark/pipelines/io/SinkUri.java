package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.ConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Parses a {@code --sink}, {@code --lateSink} or {@code --deadLetterSink} URI into a {@link Sink},
 * checking it before the job starts: {@code stdout}, {@code file:PATH} (JSON lines, appended) or
 * {@code kafka://HOST:PORT/TOPIC}.
 */
public final class SinkUri {

  private static final String FORMS = "use stdout, file:PATH or kafka://HOST:PORT/TOPIC";

  private SinkUri() {}

  /**
   * Parses {@code uri}, the value of {@code --option}; a Kafka sink gets {@code kafkaProperties}
   * and writes in transactions with {@code transactionalShards} writers, or at least once if 0.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  public static Sink parse(
      String option, String uri, Map<String, String> kafkaProperties, int transactionalShards) {
    String value = uri == null ? "" : uri.trim();
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
