package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.pipelines.cli.Tidemark;
import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --kafkaProperties} against a broker of its own that requires SASL/PLAIN: with the right
 * credentials {@code count} reads the topic, and writes a results topic in transactions; with a
 * wrong password the run is refused before it starts, in one line, and the password appears in
 * nothing it prints.
 */
@Order(SuiteOrder.LONG)
class KafkaSaslIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "tidemark-secret";
  private static final long BASE = 1586489565000L;

  private static KafkaBroker broker;

  @TempDir Path directory;

  @BeforeAll
  static void startBroker() throws Exception {
    broker = KafkaBroker.startWithSaslPlain(Map.of("tidemark", PASSWORD));
  }

  @AfterAll
  static void stopBroker() throws IOException {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void aWrongPasswordIsRefusedInOneLineBeforeTheRunStarts() throws Exception {
    broker.createTopic("secured-wrong", 1);
    String wrong = "not-" + PASSWORD;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long started = System.nanoTime();
    int exitCode =
        Tidemark.run(
            new String[] {
              "count",
              "--source=kafka://" + broker.bootstrapServers() + "/secured-wrong",
              "--kafkaProperties=" + properties("wrong.properties", wrong),
              "--sink=file:" + directory.resolve("never.json")
            },
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    String printed = err.toString(StandardCharsets.UTF_8);

    assertThat(printed, exitCode, equalTo(2));
    assertThat(printed, printed.lines().toList(), hasSize(1));
    assertThat(
        printed, containsString("tidemark: --source: the broker at " + broker.bootstrapServers()));
    assertThat(printed, containsString("Authentication failed"));
    assertThat(printed, not(containsString(wrong)));
    assertThat("refused without Kafka's retries", took, lessThan(Duration.ofSeconds(15)));
  }

  @Test
  void theRightPasswordReadsTheTopic() throws Exception {
    broker.createTopic("secured", 1);
    List<String> lines = new ArrayList<>();
    for (int second = 0; second < 10; second++) {
      lines.add("a," + (BASE + second * 1000L));
    }
    broker.send("secured", 0, lines);
    Path out = directory.resolve("counts.json");
    Path log = directory.resolve("run.log");
    Process run =
        TidemarkJar.run(
                "count",
                "--source=kafka://" + broker.bootstrapServers() + "/secured",
                "--kafkaProperties=" + properties("right.properties", PASSWORD),
                "--sink=file:" + out,
                "--idleTimeout=3s")
            .redirectOutput(log.toFile())
            .start();
    Map<String, Long> expected = Map.of("a," + BASE, 5L, "a," + (BASE + 5000), 5L);
    try {
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (!finalCounts(out).equals(expected) && System.nanoTime() < deadline) {
        assertThat(Files.readString(log), run.isAlive(), equalTo(true));
        Thread.sleep(250);
      }
      assertThat(Files.readString(log), finalCounts(out), equalTo(expected));
    } finally {
      run.destroyForcibly();
    }
    assertThat(Files.readString(log), not(containsString(PASSWORD)));
  }

  /**
   * The secured broker, written to as S5's users do: results to a topic, in Kafka transactions (a
   * checkpointed run on embedded Flink, from the jar), with one row per window ({@code
   * --emit=final}). A {@code read_committed} consumer that logs in reads each window once, with its
   * count, and the password is in nothing the run printed.
   */
  @Test
  void theRightPasswordWritesTheResultsTopicExactlyOnce() throws Exception {
    broker.createTopic("secured-in", 1);
    broker.createTopic("secured-counts", 1);
    List<String> lines = new ArrayList<>();
    for (int second = 0; second < 10; second++) {
      lines.add("a," + (BASE + second * 1000L));
    }
    broker.send("secured-in", 0, lines);
    Path log = directory.resolve("eos.log");
    Process run =
        TidemarkJar.run(
                "count",
                "--source=kafka://" + broker.bootstrapServers() + "/secured-in",
                "--kafkaProperties=" + properties("right.properties", PASSWORD),
                "--sink=kafka://" + broker.bootstrapServers() + "/secured-counts",
                "--deadLetterSink=file:" + directory.resolve("dead.json"),
                "--lateSink=file:" + directory.resolve("late.json"),
                "--emit=final",
                "--checkpointingInterval=500",
                "--idleTimeout=3s")
            .redirectOutput(log.toFile())
            .start();
    List<JsonNode> rows = new ArrayList<>();
    try {
      // Two windows, and a surplus row, if any, once they are in.
      for (String value : broker.readCommitted("secured-counts", 2, Duration.ofMinutes(2))) {
        rows.add(JSON.readTree(value));
      }
    } finally {
      run.destroyForcibly();
    }
    assertThat(
        Files.readString(log),
        Outputs.finalCounts(rows),
        equalTo(Map.of("a," + BASE, 5L, "a," + (BASE + 5000), 5L)));
    assertThat(rows.toString(), rows, hasSize(2));
    // Written in transactions: the one writer's marker says both rows are committed.
    assertThat(
        broker.committedOffset(
            "tidemark-secured-counts-results-0", new TopicPartition("secured-counts", 0)),
        equalTo(2L));
    assertThat(Files.readString(log), not(containsString(PASSWORD)));
    // Nothing alarming either: KafkaIO's source logged Beam's "Unable to update metrics" with a
    // stack trace in every Kafka run on Flink, and so did gauges set outside a metrics scope.
    assertThat(Files.readString(log), not(containsString("ERROR")));
  }

  /** A client properties file that logs in as {@code tidemark} with {@code password}. */
  private Path properties(String name, String password) throws IOException {
    Path file = directory.resolve(name);
    List<String> lines = new ArrayList<>();
    KafkaBroker.saslPlain("tidemark", password)
        .forEach((key, value) -> lines.add(key + "=" + value));
    return Files.write(file, lines);
  }

  private static Map<String, Long> finalCounts(Path out) throws IOException {
    return Files.exists(out) ? Outputs.finalCounts(Outputs.read(out)) : Map.of();
  }
}
