package dev.tidemark.benchmarks;

import dev.tidemark.stack.ChildJvm;
import dev.tidemark.stack.KafkaNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.io.MoreFiles;
import org.apache.kafka.common.Uuid;

/**
 * The Kafka benchmark's own broker: {@link KafkaNode}'s single-node KRaft broker in a JVM of its
 * own, on free loopback ports, with its data in a temporary directory. {@link #close()} stops it
 * and deletes the data, and a shutdown hook does the same if the benchmark is interrupted.
 */
final class LoopbackBroker implements AutoCloseable {

  private static final Duration STARTUP = Duration.ofSeconds(120);

  private final Path directory;
  private final Process broker;
  private final String bootstrapServers;
  private final Thread stopOnExit;

  private LoopbackBroker(Path directory, Process broker, String bootstrapServers) {
    this.directory = directory;
    this.broker = broker;
    this.bootstrapServers = bootstrapServers;
    this.stopOnExit = new Thread(broker::destroyForcibly, "stop-benchmark-broker");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /** Formats the broker's storage, starts it and waits until it answers. */
  static LoopbackBroker start() throws IOException, InterruptedException {
    Path directory = Files.createTempDirectory("tidemark-benchmark-kafka");
    int port = freePort();
    Path properties = directory.resolve("server.properties");
    Files.writeString(properties, KafkaNode.serverProperties(directory, port, freePort()));
    Process format =
        launch(
            directory.resolve("format.log"),
            KafkaNode.STORAGE_TOOL,
            "format",
            "-t",
            Uuid.randomUuid().toString(),
            "-c",
            properties.toString());
    if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
      throw new IllegalStateException("formatting Kafka's storage failed; see " + directory);
    }
    Process process =
        launch(directory.resolve("kafka.log"), "-Xmx512m", KafkaNode.BROKER, properties.toString());
    LoopbackBroker broker = new LoopbackBroker(directory, process, "127.0.0.1:" + port);
    broker.awaitAnswer();
    return broker;
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  private void awaitAnswer() throws InterruptedException {
    if (!KafkaNode.awaitAnswer(bootstrapServers, STARTUP, broker::isAlive)) {
      close();
      throw new IllegalStateException("the benchmark's Kafka broker did not answer in time");
    }
  }

  @Override
  public void close() {
    broker.destroy();
    try {
      if (!broker.waitFor(20, TimeUnit.SECONDS)) {
        broker.destroyForcibly().waitFor();
      }
      MoreFiles.deleteRecursively(directory);
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IOException | InterruptedException | IllegalStateException e) {
      // Stopping anyway: the JVM is going, and the hook, if still there, stops the broker.
    }
  }

  private static Process launch(Path log, String... args) throws IOException {
    return new ProcessBuilder(ChildJvm.command(args))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  private static int freePort() throws IOException {
    try (ServerSocket free = new ServerSocket(0)) {
      return free.getLocalPort();
    }
  }
}
