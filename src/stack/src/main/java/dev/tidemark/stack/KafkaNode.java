package dev.tidemark.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A single-node Kafka broker in KRaft mode (its own controller, no ZooKeeper) on loopback: its
 * configuration and the main classes that format its storage and run it. Topics are never created
 * on the fly, as in production.
 */
public final class KafkaNode {

  /** Formats the broker's storage: {@code format -t CLUSTER_ID -c server.properties}. */
  public static final String STORAGE_TOOL = "kafka.tools.StorageTool";

  /** Runs the broker: {@code server.properties}. */
  public static final String BROKER = "kafka.Kafka";

  private KafkaNode() {}

  /**
   * {@code server.properties} for a broker on {@code port}, with its data under {@code directory}.
   */
  public static String serverProperties(Path directory, int port, int controllerPort) {
    return String.join(
        "\n",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
        "log.dirs=" + directory.resolve("data"),
        "offsets.topic.replication.factor=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        "auto.create.topics.enable=false",
        "");
  }

  /**
   * Waits until the broker at {@code bootstrapServers} answers an admin request, for at most {@code
   * timeout} and while {@code running} says its process still runs; returns whether it answered.
   */
  public static boolean awaitAnswer(
      String bootstrapServers, Duration timeout, BooleanSupplier running)
      throws InterruptedException {
    Map<String, Object> config =
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline && running.getAsBoolean()) {
      try (Admin admin = Admin.create(config)) {
        admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
        return true;
      } catch (Exception notYet) {
        Thread.sleep(250);
      }
    }
    return false;
  }

  /**
   * A consumer's configuration that reads topics of the broker at {@code bootstrapServers} from the
   * start, as a new group named after {@code groupPrefix}, committed records only, as text.
   */
  public static Map<String, Object> readFromTheStart(String bootstrapServers, String groupPrefix) {
    return Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
        bootstrapServers,
        ConsumerConfig.GROUP_ID_CONFIG,
        groupPrefix + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
        "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
        "read_committed",
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
        StringDeserializer.class.getName(),
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
        StringDeserializer.class.getName());
  }
}
