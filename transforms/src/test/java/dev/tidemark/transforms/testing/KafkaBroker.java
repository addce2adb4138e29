package dev.tidemark.transforms.testing;

import dev.tidemark.stack.KafkaNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A real single-node Kafka broker (KRaft, no ZooKeeper) in its own JVM, configured as the stack's
 * ({@link KafkaNode}), started from the test classpath on free loopback ports ({@link ChildJvms})
 * and stopped by {@link #close()}; {@link #stop} and {@link #restart} take it away mid-test and
 * bring it back with its data. Its log is {@code broker.log} in its temporary directory.
 */
public final class KafkaBroker implements AutoCloseable {

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);
  private static final String LOG = "broker";

  private static final String PLAIN_LOGIN =
      "org.apache.kafka.common.security.plain.PlainLoginModule required";

  private final ChildJvms jvms;
  private final Path config;
  private final int port;

  /** What this class's own clients (topics, sends, readiness) add to their configuration. */
  private final Map<String, String> clientProperties;

  private Process process;

  private KafkaBroker(ChildJvms jvms, Path config, int port, Map<String, String> clientProperties)
      throws IOException {
    this.jvms = jvms;
    this.config = config;
    this.port = port;
    this.clientProperties = clientProperties;
    this.process = startBroker();
  }

  /** Lines that {@code server.properties} ends with, overriding the stack's, for given ports. */
  @FunctionalInterface
  private interface Overrides {
    String lines(int port, int controllerPort);
  }

  /**
   * Formats storage, starts the broker and waits until it answers; on new ports if another process
   * took one first ({@link PortRaces}).
   */
  public static KafkaBroker start() throws Exception {
    return PortRaces.startOnFreePorts(() -> startOnFreePorts(Map.of(), (port, controller) -> ""));
  }

  /**
   * A broker, started as {@link #start()} does, whose clients must log in with SASL/PLAIN (over
   * plaintext, on loopback) as one of {@code users}, by name and password. The broker itself and
   * this class's own clients log in as {@code admin}.
   */
  public static KafkaBroker startWithSaslPlain(Map<String, String> users) throws Exception {
    StringBuilder jaas = new StringBuilder(PLAIN_LOGIN + " username=\"admin\" password=\"admin\"");
    jaas.append(" user_admin=\"admin\"");
    users.forEach((user, password) -> jaas.append(" user_" + user + "=\"" + password + "\""));
    jaas.append(';');
    return PortRaces.startOnFreePorts(
        () ->
            startOnFreePorts(
                saslPlain("admin", "admin"),
                (port, controller) ->
                    String.join(
                        "\n",
                        "listeners=SASL_PLAINTEXT://127.0.0.1:"
                            + port
                            + ",CONTROLLER://127.0.0.1:"
                            + controller,
                        "advertised.listeners=SASL_PLAINTEXT://127.0.0.1:" + port,
                        "inter.broker.listener.name=SASL_PLAINTEXT",
                        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,"
                            + "SASL_PLAINTEXT:SASL_PLAINTEXT",
                        "sasl.enabled.mechanisms=PLAIN",
                        "sasl.mechanism.inter.broker.protocol=PLAIN",
                        "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + jaas,
                        "")));
  }

  /** A Kafka client's properties that log in as {@code user} with SASL/PLAIN. */
  public static Map<String, String> saslPlain(String user, String password) {
    return Map.of(
        "security.protocol", "SASL_PLAINTEXT",
        "sasl.mechanism", "PLAIN",
        "sasl.jaas.config",
            PLAIN_LOGIN + " username=\"" + user + "\" password=\"" + password + "\";");
  }

  private static KafkaBroker startOnFreePorts(
      Map<String, String> clientProperties, Overrides overrides) throws Exception {
    ChildJvms jvms = ChildJvms.inTemporaryDirectory("tidemark-kafka-");
    try {
      int port = LineServer.freePort();
      int controllerPort = LineServer.freePort();
      Path config = jvms.directory().resolve("server.properties");
      Files.writeString(
          config,
          KafkaNode.serverProperties(jvms.directory(), port, controllerPort)
              + overrides.lines(port, controllerPort));
      Process format =
          jvms.start(
              LOG,
              KafkaNode.STORAGE_TOOL,
              "format",
              "-t",
              Uuid.randomUuid().toString(),
              "-c",
              config.toString());
      if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
        throw new IllegalStateException("formatting Kafka storage failed:\n" + jvms.tail(LOG));
      }
      KafkaBroker broker = new KafkaBroker(jvms, config, port, clientProperties);
      broker.awaitReady();
      return broker;
    } catch (Exception e) {
      jvms.close();
      throw e;
    }
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
    sendBytes(
        topic,
        partition,
        values.stream().map(value -> value.getBytes(StandardCharsets.UTF_8)).toList());
  }

  /** Sends raw {@code values}, which need not be text, as {@link #send} does. */
  public void sendBytes(String topic, int partition, List<byte[]> values) throws Exception {
    send(
        values.stream()
            .map(value -> new ProducerRecord<byte[], byte[]>(topic, partition, null, value))
            .toList());
  }

  /**
   * Sends {@code values} to one partition of {@code topic}, in order, each with the Kafka timestamp
   * at the same index of {@code timestamps} (the topic's default, CreateTime, keeps it), and waits
   * for the acks.
   */
  public void sendStamped(String topic, int partition, List<Long> timestamps, List<String> values)
      throws Exception {
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      records.add(
          new ProducerRecord<>(
              topic,
              partition,
              timestamps.get(i),
              null,
              values.get(i).getBytes(StandardCharsets.UTF_8)));
    }
    send(records);
  }

  private void send(List<ProducerRecord<byte[], byte[]>> records) throws Exception {
    Properties config = new Properties();
    config.putAll(clientProperties);
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    // Idempotent (Kafka's default with acks=all), so records sent without waiting for each one keep
    // their order within a partition.
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (ProducerRecord<byte[], byte[]> record : records) {
        sent.add(producer.send(record));
      }
      for (Future<RecordMetadata> each : sent) {
        each.get(30, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * The values of {@code topic} from its start, as a {@code read_committed} consumer reads them: it
   * waits up to {@code timeout} for at least {@code atLeast} of them, and reads on to the end
   * offsets, so that a surplus shows too.
   */
  public List<String> readCommitted(String topic, int atLeast, Duration timeout) {
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      Set<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .collect(Collectors.toSet());
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          values.add(record.value());
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        if (values.size() >= atLeast
            && partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p))) {
          break;
        }
      }
    }
    return values;
  }

  /** The offset {@code group} has committed on {@code partition}; -1 if none. */
  public long committedOffset(String group, TopicPartition partition) throws Exception {
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    try (Admin admin = Admin.create(config)) {
      OffsetAndMetadata committed =
          admin
              .listConsumerGroupOffsets(group)
              .partitionsToOffsetAndMetadata()
              .get()
              .get(partition);
      return committed == null ? -1 : committed.offset();
    }
  }

  /** Stops the broker as an operator would (SIGTERM, a controlled shutdown); its data stays. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Starts the stopped broker again, on the same port with the same data, and waits for it. */
  public void restart() throws Exception {
    process = startBroker();
    awaitReady();
  }

  @Override
  public void close() throws IOException {
    jvms.close();
  }

  private Process startBroker() throws IOException {
    return jvms.start(LOG, "-Xmx512m", KafkaNode.BROKER, config.toString());
  }

  private void awaitReady() throws Exception {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the Kafka broker exited:\n" + jvms.tail(LOG));
      }
      try (AdminClient admin = admin()) {
        admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
        return;
      } catch (Exception notYet) {
        Thread.sleep(250);
      }
    }
    throw new IllegalStateException("the Kafka broker did not answer in time:\n" + jvms.tail(LOG));
  }

  private AdminClient admin() {
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
    return AdminClient.create(config);
  }
}
