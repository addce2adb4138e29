package dev.tidemark.transforms.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A real single-node Kafka broker (KRaft, no ZooKeeper) in its own JVM, started from the test
 * classpath on free loopback ports and stopped by {@link #close()}, or by a shutdown hook if the
 * test JVM goes down first. Its log is {@code broker.log} in its temporary directory.
 */
public final class KafkaBroker implements AutoCloseable {

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

  private final Path directory;
  private final Process process;
  private final int port;
  private final Thread killOnExit;

  private KafkaBroker(Path directory, Process process, int port) {
    this.directory = directory;
    this.process = process;
    this.port = port;
    this.killOnExit = new Thread(process::destroyForcibly, "kill-kafka-broker");
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /** Formats storage, starts the broker and waits until it answers. */
  public static KafkaBroker start() throws Exception {
    Path directory = Files.createTempDirectory("tidemark-kafka-");
    int port = LineServer.freePort();
    int controllerPort = LineServer.freePort();
    Path config = directory.resolve("server.properties");
    Files.writeString(config, serverProperties(directory, port, controllerPort));
    Path log = directory.resolve("broker.log");

    Process format =
        java(
                "kafka.tools.StorageTool",
                "format",
                "-t",
                Uuid.randomUuid().toString(),
                "-c",
                config.toString())
            .redirectOutput(log.toFile())
            .start();
    if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
      format.destroyForcibly();
      throw new IllegalStateException("formatting Kafka storage failed:\n" + tail(log));
    }
    Process process =
        java("kafka.Kafka", config.toString())
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    KafkaBroker broker = new KafkaBroker(directory, process, port);
    try {
      broker.awaitReady(log);
    } catch (Exception e) {
      broker.close();
      throw e;
    }
    return broker;
  }

  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  public void createTopic(String topic, int partitions) throws Exception {
    try (AdminClient admin = admin()) {
      admin
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  /** Sends {@code values} to one partition of {@code topic}, in order, and waits for the acks. */
  public void send(String topic, int partition, List<String> values) throws Exception {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      for (String value : values) {
        producer
            .send(new ProducerRecord<>(topic, partition, null, value))
            .get(30, TimeUnit.SECONDS);
      }
    }
  }

  @Override
  public void close() throws IOException {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down; the hook runs anyway.
    }
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  private void awaitReady(Path log) throws Exception {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the Kafka broker exited:\n" + tail(log));
      }
      try (AdminClient admin = admin()) {
        admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
        return;
      } catch (Exception notYet) {
        Thread.sleep(250);
      }
    }
    throw new IllegalStateException("the Kafka broker did not answer in time:\n" + tail(log));
  }

  private AdminClient admin() {
    return AdminClient.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000));
  }

  private static ProcessBuilder java(String mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true);
  }

  private static String serverProperties(Path directory, int port, int controllerPort) {
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

  private static String tail(Path log) throws IOException {
    if (!Files.exists(log)) {
      return "(no log)";
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
