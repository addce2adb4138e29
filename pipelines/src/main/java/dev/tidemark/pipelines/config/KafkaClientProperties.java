package dev.tidemark.pipelines.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * {@code --kafkaProperties=PATH}: a Kafka client properties file, as Kafka's own tools take with
 * {@code --command-config}, whose settings every Kafka client of the run gets (the sources'
 * consumers, the sinks' producers and the check that a topic exists): security ({@code
 * security.protocol}, {@code sasl.*}, {@code ssl.*}), {@code group.id}, {@code client.id} and the
 * like. The settings tidemark makes itself are refused with where they come from.
 */
public final class KafkaClientProperties {

  /** Settings that tidemark derives from the command line, and from where. */
  private static final Map<String, String> TIDEMARK_SETS =
      Map.of(
          "bootstrap.servers", "the kafka://HOST:PORT/TOPIC address",
          "auto.offset.reset", "--startFrom",
          "key.deserializer", "tidemark (records are read as bytes)",
          "value.deserializer", "tidemark (records are read as bytes)",
          "key.serializer", "tidemark (results are written as text)",
          "value.serializer", "tidemark (results are written as text)");

  private KafkaClientProperties() {}

  /**
   * The settings of {@code --kafkaProperties}, empty without it.
   *
   * @throws ConfigurationException if the file cannot be read, or sets what tidemark sets
   */
  public static Map<String, String> from(TidemarkOptions options) {
    String path = options.getKafkaProperties();
    if (path == null) {
      return Map.of();
    }
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
      properties.load(in);
    } catch (NoSuchFileException e) {
      throw new ConfigurationException("--kafkaProperties: there is no file '" + path + "'");
    } catch (IOException | IllegalArgumentException e) {
      throw new ConfigurationException(
          "--kafkaProperties: cannot read '" + path + "' (" + e.getMessage() + ")");
    }
    Map<String, String> settings = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      String from = TIDEMARK_SETS.get(name);
      if (from != null) {
        throw new ConfigurationException(
            "--kafkaProperties: '"
                + name
                + "' in "
                + path
                + " comes from "
                + from
                + "; leave it out");
      }
      settings.put(name, properties.getProperty(name));
    }
    return settings;
  }
}
