package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.io.KafkaAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Checks, before a job starts, that a Kafka broker answers at a {@code kafka://} address and that
 * its topic exists, so that a wrong address or a missing topic fails in seconds with one line
 * instead of minutes later with a stack trace (the Kafka client retries a broker it cannot reach
 * for as long as it is allowed to). tidemark never creates a topic: a source topic that does not
 * exist is a mistake to report, and a sink topic created on the fly would get the broker's default
 * partitions and retention.
 */
final class KafkaPreflight {

  /** How long a broker has to answer. */
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private KafkaPreflight() {}

  /**
   * @throws ConfigurationException naming {@code --option}, the address and what to check
   */
  static void requireTopic(
      String option, KafkaAddress address, Map<String, String> clientProperties) {
    if (!anyAcceptsConnections(address.bootstrapServers())) {
      throw unreachable(option, address, "connection refused");
    }
    int timeoutMillis = (int) TIMEOUT.toMillis();
    // The user's client properties (security, above all), then what the check itself needs.
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address.bootstrapServers());
    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMillis);
    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMillis);
    Admin admin = Admin.create(config);
    try {
      admin
          .describeTopics(List.of(address.topic()))
          .allTopicNames()
          .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw unreachable(option, address, "no answer");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        throw new ConfigurationException(
            "--"
                + option
                + ": topic '"
                + address.topic()
                + "' does not exist on the broker at "
                + address.bootstrapServers()
                + "; create it first (tidemark does not create topics)");
      }
      if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
        throw unreachable(option, address, "no answer");
      }
      if (e.getCause() instanceof AuthenticationException) {
        // Kafka's message says what failed, never the secret.
        throw new ConfigurationException(
            "--"
                + option
                + ": the broker at "
                + address.bootstrapServers()
                + " refused the login of --kafkaProperties ("
                + e.getCause().getMessage()
                + "); check its security.protocol, sasl.* and ssl.* properties");
      }
      throw new ConfigurationException(
          "--"
              + option
              + ": the broker at "
              + address.bootstrapServers()
              + " said: "
              + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConfigurationException("--" + option + ": interrupted while asking the broker");
    } finally {
      admin.close(Duration.ZERO);
    }
  }

  /**
   * Whether any of {@code bootstrapServers} accepts a TCP connection: a refused one is known at
   * once, where the Kafka client would retry it until its timeout.
   */
  private static boolean anyAcceptsConnections(String bootstrapServers) {
    for (String server : bootstrapServers.split(",")) {
      int colon = server.lastIndexOf(':');
      try (Socket socket = new Socket()) {
        socket.connect(
            new InetSocketAddress(
                server.substring(0, colon).trim(), Integer.parseInt(server.substring(colon + 1))),
            (int) TIMEOUT.toMillis());
        return true;
      } catch (IOException | RuntimeException e) {
        // Refused, unresolvable or silent: the next server, if any.
      }
    }
    return false;
  }

  private static ConfigurationException unreachable(
      String option, KafkaAddress address, String why) {
    return new ConfigurationException(
        "--"
            + option
            + ": no Kafka broker answered at "
            + address.bootstrapServers()
            + " within "
            + TIMEOUT.toSeconds()
            + " s ("
            + why
            + "); check the host and port, that the broker runs, and that its advertised"
            + " listener is reachable from here");
  }
}
