package dev.tidemark.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A Kafka broker, a Flink session cluster and a PostgreSQL server on loopback, for users and for
 * the tests, from the Maven artifacts alone ({@code src/stack/stack}):
 *
 * <pre>
 * stack start [--dir=DIR] [--kafkaPort=9092] [--flinkPort=8081] [--prometheusPort=9249]
 *             [--postgresPort=5432] [--taskManagers=2]
 * stack topic NAME PARTITIONS [--dir=DIR]      creates a topic
 * stack produce TOPIC FILE [--dir=DIR]         sends each line of FILE as a record
 * stack consume TOPIC [--dir=DIR] [--seconds=10] [--keys=true]
 *                                    prints every record (with --keys=true, its key, a tab, then
 *                                    its value), until none came for that long
 * stack psql SQL [--dir=DIR]                  runs one SQL statement in the stack's database
 *                                    and prints its rows
 * stack stop [--dir=DIR] [--logs=delete]
 * stack [--dir=DIR] flink ARGUMENTS...       Flink's own command line (bin/flink) against the
 *                                    stack's cluster, e.g. flink run JAR ...; Flink's logs go to
 *                                    DIR/flink-cli.log
 * </pre>
 *
 * <p>Without {@code --dir}, {@code start} uses the default directory and every other command the
 * one stack that is running, which it names; with none or several running, it refuses in one line
 * ({@link RunningStacks}).
 *
 * <p>{@code start} runs each node in a JVM of its own that outlives the command, logs in {@code
 * DIR/*.log}, waits until the broker and the database answer and the TaskManagers have registered,
 * and writes {@code DIR/stack.properties} (the addresses and process ids) for the other commands,
 * and {@code DIR/jdbc.properties}, the database's login for {@code --jdbcProperties} ({@link
 * PostgresNode}: user {@code postgres}, a new password each start). A port of 0 takes a free one.
 * {@code stop} stops the nodes and deletes {@code DIR} but the logs, which a next {@code start}
 * appends to; {@code stop --logs=delete} deletes them too.
 */
public final class Stack {

  private static final Duration STARTUP = Duration.ofSeconds(120);
  private static final String STATE = RunningStacks.STATE;
  private static final Path DEFAULT_DIRECTORY =
      Path.of(System.getProperty("java.io.tmpdir"), "tidemark-stack");

  private final Path directory;
  private final Map<String, String> options;

  private final RunningStacks running;

  private Stack(Map<String, String> options, Path directory, RunningStacks running) {
    this.options = options;
    this.directory = directory;
    this.running = running;
  }

  public static void main(String[] args) throws Exception {
    // The command's own log: what goes wrong, not every client's start-up. The nodes log to files.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
    StackCommand command;
    try {
      command = StackCommand.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("stack: " + e.getMessage());
      System.exit(2);
      return;
    }
    RunningStacks running = RunningStacks.ofThisMachine();
    Path directory;
    if (command.options().containsKey("dir")) {
      directory = Path.of(command.options().get("dir"));
    } else if (command.name().equals("start")) {
      directory = DEFAULT_DIRECTORY;
    } else {
      try {
        directory = running.theOnlyOne();
      } catch (IllegalArgumentException e) {
        System.err.println("stack: " + e.getMessage());
        System.exit(2);
        return;
      }
      // Not silently: say which stack the command goes to.
      System.err.println("stack: the stack in " + directory);
    }
    Stack stack = new Stack(command.options(), directory, running);
    List<String> words = command.words();
    try {
      switch (command.name()) {
        case "start" -> stack.start();
        case "stop" -> stack.stop();
        case "topic" -> stack.createTopic(words.get(0), Integer.parseInt(words.get(1)));
        case "produce" -> stack.produce(words.get(0), Path.of(words.get(1)));
        case "consume" -> stack.consume(words.get(0));
        case "flink" -> System.exit(stack.flink(words));
        case "psql" ->
            StackDatabase.psql(
                stack.state().getProperty("postgres"),
                StackDatabase.login(directory),
                words.get(0));
        default -> throw new IllegalStateException("no such command: " + command.name());
      }
    } catch (IllegalStateException e) {
      // What the stack says of itself (none running, one already running, a node that did not
      // come up): one line, with the log to read where there is one.
      System.err.println("stack: " + e.getMessage());
      System.exit(1);
    }
    System.exit(0);
  }

  private void start() throws Exception {
    if (Files.exists(directory.resolve(STATE))) {
      throw new IllegalStateException(
          "a stack is already running from " + directory + "; stop it first (stack stop)");
    }
    Files.createDirectories(directory);
    int kafkaPort = port("kafkaPort", 9092);
    int flinkPort = port("flinkPort", 8081);
    int taskManagers = Integer.parseInt(options.getOrDefault("taskManagers", "2"));
    Path serverProperties = directory.resolve("server.properties");
    Files.writeString(
        serverProperties, KafkaNode.serverProperties(directory, kafkaPort, port("", 0)));
    Process format =
        launch(
            "kafka-format",
            KafkaNode.STORAGE_TOOL,
            "format",
            "-t",
            Uuid.randomUuid().toString(),
            "-c",
            serverProperties.toString());
    if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
      throw new IllegalStateException(
          "formatting Kafka's storage failed; see " + log("kafka-format"));
    }
    List<Process> nodes = new ArrayList<>();
    nodes.add(launch("kafka", "-Xmx512m", KafkaNode.BROKER, serverProperties.toString()));
    int prometheusPort = port("prometheusPort", 9249);
    Files.writeString(
        directory.resolve("flink-conf.yaml"),
        FlinkNodes.configuration(flinkPort, port("", 0))
            + FlinkNodes.prometheusReporter(prometheusPort, prometheusPort + taskManagers));
    nodes.add(launchFlinkNode("jobmanager", FlinkNodes.JOB_MANAGER));
    for (int i = 1; i <= taskManagers; i++) {
      nodes.add(launchFlinkNode("taskmanager" + i, FlinkNodes.TASK_MANAGER));
    }
    List<Long> pids = new ArrayList<>(nodes.stream().map(Process::pid).toList());
    PostgresNode postgres =
        StackDatabase.start(directory, port("postgresPort", 5432), log("postgres"));
    pids.add(postgres.pid());
    Properties state = new Properties();
    state.setProperty("kafka", "127.0.0.1:" + kafkaPort);
    state.setProperty("flink", "localhost:" + flinkPort);
    state.setProperty("postgres", postgres.url());
    state.setProperty("pids", String.join(",", pids.stream().map(Object::toString).toList()));
    try (OutputStream out = Files.newOutputStream(directory.resolve(STATE))) {
      state.store(out, "tidemark stack");
    }
    running.register(directory);
    awaitKafka(state.getProperty("kafka"));
    awaitTaskManagers(flinkPort, taskManagers);
    System.out.println("kafka: " + state.getProperty("kafka"));
    System.out.println(
        "flink: " + state.getProperty("flink") + " (Web UI: http://localhost:" + flinkPort + ")");
    System.out.println(
        "prometheus: http://localhost:"
            + prometheusPort
            + "-"
            + (prometheusPort + taskManagers)
            + "/metrics (one port a node, in the order they bind)");
    System.out.println(
        "postgres: "
            + postgres.url()
            + "?table=NAME (log in with --jdbcProperties="
            + StackDatabase.login(directory)
            + ")");
    System.out.println("logs:  " + directory);
  }

  private void stop() throws Exception {
    Properties state = state();
    List<ProcessHandle> nodes = new ArrayList<>();
    for (String pid : state.getProperty("pids").split(",")) {
      ProcessHandle.of(Long.parseLong(pid)).ifPresent(nodes::add);
    }
    nodes.forEach(ProcessHandle::destroy);
    for (ProcessHandle node : nodes) {
      try {
        node.onExit().get(20, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        node.destroyForcibly();
      }
    }
    running.unregister(directory);
    boolean deleteLogs = "delete".equals(options.get("logs"));
    try (Stream<Path> files = Files.walk(directory)) {
      files
          .sorted(Comparator.reverseOrder())
          .filter(path -> deleteLogs || !isLogOrTheirDirectory(path))
          .forEach(path -> path.toFile().delete());
    }
    System.out.println(
        "stopped "
            + nodes.size()
            + " nodes; "
            + (deleteLogs
                ? "deleted " + directory
                : "kept their logs in " + directory + " (stack stop --logs=delete removes them)"));
  }

  /**
   * A node's log, or the stack's directory that holds them (Kafka's data directory below it has
   * files named {@code .log} too: its partitions' segments).
   */
  private boolean isLogOrTheirDirectory(Path path) {
    return path.equals(directory)
        || (directory.equals(path.getParent()) && path.getFileName().toString().endsWith(".log"));
  }

  private void createTopic(String topic, int partitions) throws Exception {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka()))) {
      admin
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    System.out.println("topic " + topic + ": " + partitions + " partitions");
  }

  private void produce(String topic, Path file) throws Exception {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.ACKS_CONFIG, "all");
    long sent = 0;
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        producer.send(new ProducerRecord<>(topic, line));
        sent++;
      }
      producer.flush();
    }
    System.out.println("sent " + sent + " records to " + topic);
  }

  private void consume(String topic) {
    long quietMillis =
        TimeUnit.SECONDS.toMillis(Long.parseLong(options.getOrDefault("seconds", "10")));
    boolean keys = Boolean.parseBoolean(options.getOrDefault("keys", "false"));
    Map<String, Object> config = KafkaNode.readFromTheStart(kafka(), "tidemark-stack-");
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(topic));
      long lastRecord = System.currentTimeMillis();
      while (System.currentTimeMillis() - lastRecord < quietMillis) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          System.out.println(keys ? record.key() + "\t" + record.value() : record.value());
          lastRecord = System.currentTimeMillis();
        }
      }
    }
  }

  /**
   * Runs Flink's command line ({@link FlinkCli}) with {@code arguments} against this stack's
   * cluster, its output on the terminal and Flink's logs in {@code DIR/flink-cli.log}; returns its
   * exit code.
   */
  private int flink(List<String> arguments) throws Exception {
    state();
    return FlinkCli.command(directory, log("flink-cli"), List.of(), arguments)
        .inheritIO()
        .start()
        .waitFor();
  }

  /** Starts a Flink node, {@code mainClass}, with the JVM options and configuration it takes. */
  private Process launchFlinkNode(String name, String mainClass) throws IOException {
    List<String> args = new ArrayList<>(FlinkNodes.JVM_OPTIONS);
    args.addAll(FlinkNodes.LOG_OPTIONS);
    args.addAll(List.of(mainClass, "--configDir", directory.toString()));
    return launch(name, args.toArray(String[]::new));
  }

  /** Starts {@code java -cp <this classpath> ARGS} on its own, logging to {@code DIR/name.log}. */
  private Process launch(String name, String... args) throws IOException {
    return new ProcessBuilder(ChildJvm.command(args))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log(name).toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .start();
  }

  private Path log(String name) {
    return directory.resolve(name + ".log");
  }

  private void awaitKafka(String bootstrapServers) throws Exception {
    if (!KafkaNode.awaitAnswer(bootstrapServers, STARTUP, () -> true)) {
      throw new IllegalStateException("Kafka did not answer in time; see " + log("kafka"));
    }
  }

  private void awaitTaskManagers(int flinkPort, int count) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        String overview =
            http.send(
                    HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + flinkPort + "/overview"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body();
        if (overview.contains("\"taskmanagers\":" + count)) {
          return;
        }
      } catch (IOException notYet) {
        // The REST endpoint is not up yet.
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException(
        "no TaskManager registered in time; see "
            + log("jobmanager")
            + " and "
            + log("taskmanager1"));
  }

  /**
   * The port option {@code name}, {@code fallback} when not given; 0 (or no name) takes a free one.
   */
  private int port(String name, int fallback) throws IOException {
    int port = name.isEmpty() ? 0 : Integer.parseInt(options.getOrDefault(name, "" + fallback));
    if (port != 0) {
      return port;
    }
    try (ServerSocket free = new ServerSocket(0)) {
      return free.getLocalPort();
    }
  }

  private String kafka() {
    return state().getProperty("kafka");
  }

  private Properties state() {
    Properties state = new Properties();
    try (InputStream in = Files.newInputStream(directory.resolve(STATE))) {
      state.load(in);
    } catch (IOException e) {
      throw new IllegalStateException(
          "no stack is running from " + directory + " (stack start)", e);
    }
    return state;
  }
}
