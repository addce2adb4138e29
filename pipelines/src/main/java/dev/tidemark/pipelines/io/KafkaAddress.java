package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.ConfigurationException;

/** {@code kafka://HOST:PORT/TOPIC}, parsed: the same form for sources and sinks. */
public record KafkaAddress(String bootstrapServers, String topic) {

  /**
   * Parses {@code uri}, the value of {@code --option}.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  public static KafkaAddress parse(String option, String uri) {
    String rest = uri.substring("kafka://".length());
    int slash = rest.indexOf('/');
    if (slash < 0 || slash == rest.length() - 1) {
      throw new ConfigurationException(
          "--" + option + ": '" + uri + "' names no topic; use kafka://HOST:PORT/TOPIC");
    }
    return new KafkaAddress(
        SourceUri.hostAndPort(option, uri, rest.substring(0, slash), "kafka://HOST:PORT/TOPIC"),
        rest.substring(slash + 1));
  }
}
