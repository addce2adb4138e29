package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * What goes wrong in production, on a real Kafka broker and a real Flink session cluster (two
 * TaskManagers), each job submitted from the shaded jar: S4's topic where one of ten partitions has
 * all the data; garbage in the input topic; and the broker going away for 10 s mid-stream.
 */
@ResourceLock(SharedKafkaBroker.LOCK)
@ResourceLock(SharedFlinkCluster.LOCK)
@Order(SharedFlinkCluster.ORDER)
@ExtendWith({SharedKafkaBroker.class, SharedFlinkCluster.class})
class KafkaFaultsOnFlinkClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long the broker is gone in the outage test. */
  private static final Duration OUTAGE = Duration.ofSeconds(10);

  /** Records acknowledged before the outage, and again after the broker is back. */
  private static final int RECORDS_AROUND_THE_OUTAGE = 300;

  private static KafkaBroker broker;
  private static FlinkCluster cluster;

  @TempDir Path directory;

  @BeforeAll
  static void shareStack(KafkaBroker sharedBroker, FlinkCluster sharedCluster) {
    broker = sharedBroker;
    cluster = sharedCluster;
  }

  @Test
  void everyWindowFiresWhenOneOfTenPartitionsHasAllTheRecords() throws Exception {
    List<String> lines = MetricsRows.records(1500, 21);
    Map<String, Long> expected = MetricsRows.expected(lines);
    broker.createTopic("s4", 10);
    broker.createTopic("s4-per-second", 1);
    broker.send("s4", 7, lines);

    Process submit = submitMetrics("s4", "s4-per-second");
    try {
      // (1) Every window fires and closes, though nine partitions never see a record.
      MetricsRows.Latest fromTopic =
          MetricsRows.latestFinal(
              broker.bootstrapServers(), "s4-per-second", expected, Duration.ofMinutes(3));
      assertThat(
          Files.readString(directory.resolve("s4.log")), fromTopic.counts, equalTo(expected));
      assertThat(fromTopic.closed, equalTo(expected.keySet()));
      // (2) And the rows are those of a file run of the same records.
      Path recording = directory.resolve("s4.json");
      Files.write(recording, lines);
      Outputs.Run fileRun =
          Outputs.run(directory, "s4-file", "metrics", "--source=file:" + recording);
      MetricsRows.Latest fromFile = MetricsRows.of(fileRun.results());
      assertThat(fromTopic.counts, equalTo(fromFile.counts));
      assertThat(fromTopic.closed, equalTo(fromFile.closed));
    } finally {
      submit.destroyForcibly();
    }
  }

  @Test
  void garbageInTheTopicGoesToTheDeadLetterTopicWithItsPosition() throws Exception {
    List<String> good = MetricsRows.records(600, 22);
    long t = JSON.readTree(good.get(0)).get("t").asLong();
    // Each bad record, and the start of the reason it must be given.
    Map<String, byte[]> garbage = new TreeMap<>();
    garbage.put("not UTF-8: byte 0 of 4 (0xFF)", new byte[] {(byte) 0xff, (byte) 0xfe, 'h', 'i'});
    // Valid JSON but for one byte inside a string, which Kafka's StringDeserializer would turn
    // into U+FFFD and count under a mangled key.
    String brokenInside = "{\"t\":" + t + ",\"st\":\"DIRECT\",\"i\":\"id?x\",\"op\":\"es_sink\"}";
    byte[] brokenBytes = brokenInside.getBytes(StandardCharsets.ISO_8859_1);
    brokenBytes[brokenInside.indexOf('?')] = (byte) 0xc3;
    garbage.put(
        "not UTF-8: byte " + brokenInside.indexOf('?') + " of " + brokenBytes.length + " (0xC3)",
        brokenBytes);
    garbage.put("not JSON", utf8("this is not json"));
    garbage.put("missing field 'i'", utf8("{\"t\":" + t + ",\"st\":\"DIRECT\"}"));
    garbage.put(
        "field 't': 9223372036854775807 is outside",
        utf8("{\"t\":9223372036854775807,\"i\":\"idx\",\"op\":\"es_sink\"}"));
    garbage.put(
        "event time -" + t + " is before 1973",
        utf8("{\"t\":-" + t + ",\"i\":\"idx\",\"op\":\"es_sink\"}"));
    garbage.put(
        "event time "
            + t / 1000
            + " is before 1973-03-03T09:46:40.000Z, the earliest accepted: it"
            + " looks like seconds",
        utf8("{\"t\":" + t / 1000 + ",\"i\":\"idx\",\"op\":\"es_sink\"}"));
    // Every 80th record is a bad one; its offset is its place in the partition.
    List<byte[]> records = new ArrayList<>();
    Map<Long, String> expectedReasons = new TreeMap<>();
    List<Map.Entry<String, byte[]>> bad = new ArrayList<>(garbage.entrySet());
    for (int i = 0; i < good.size(); i++) {
      if (i % 80 == 40 && !bad.isEmpty()) {
        Map.Entry<String, byte[]> next = bad.remove(0);
        expectedReasons.put((long) records.size(), next.getKey());
        records.add(next.getValue());
      }
      records.add(utf8(good.get(i)));
    }
    assertThat("every kind of garbage is sent", bad.isEmpty(), equalTo(true));
    broker.createTopic("raw", 1);
    broker.createTopic("raw-per-second", 1);
    broker.createTopic("raw-dead", 1);
    broker.sendBytes("raw", 0, records);

    Process submit =
        submitMetrics(
            "raw",
            "raw-per-second",
            "--deadLetterSink=kafka://" + broker.bootstrapServers() + "/raw-dead");
    try {
      // (1) Everything else is counted as if the garbage had never been there.
      Map<String, Long> expected = MetricsRows.expected(good);
      assertThat(
          MetricsRows.latestFinal(
                  broker.bootstrapServers(), "raw-per-second", expected, Duration.ofMinutes(3))
              .counts,
          equalTo(expected));
      // (2) Every bad record is a dead letter, once, at its topic, partition and offset.
      Map<Long, String> reasons = new TreeMap<>();
      TopicValues.read(
          broker.bootstrapServers(),
          "raw-dead",
          Duration.ofSeconds(60),
          value -> {
            JsonNode letter = readJson(value);
            assertThat(letter.toString(), letter.get("topic").asText(), equalTo("raw"));
            assertThat(letter.toString(), letter.get("partition").asInt(), equalTo(0));
            String previous =
                reasons.put(letter.get("offset").asLong(), letter.get("reason").asText());
            assertThat("one dead letter per record", previous, equalTo(null));
          },
          () -> reasons.size() >= expectedReasons.size());
      assertThat(reasons.keySet(), equalTo(expectedReasons.keySet()));
      reasons.forEach(
          (offset, reason) ->
              assertThat(
                  "offset " + offset + ": " + reason,
                  reason.startsWith(expectedReasons.get(offset)),
                  equalTo(true)));
      // (3) And the job keeps running.
      assertThat(cluster.rest("/jobs/overview"), org.hamcrest.Matchers.containsString("RUNNING"));
    } finally {
      submit.destroyForcibly();
    }
  }

  @Test
  void nothingIsLostOrCountedTwiceWhenTheBrokerIsGoneFor10Seconds() throws Exception {
    broker.createTopic("live", 2);
    broker.createTopic("live-per-second", 1);
    Process submit =
        submitMetrics(
            "live",
            "live-per-second",
            "--checkpointingInterval=1000",
            "--numberOfExecutionRetries=10",
            "--executionRetryDelay=2000");
    LiveProducer producer = new LiveProducer(broker, "live");
    Thread sending = new Thread(producer, "live-producer");
    try {
      sending.start();
      // (1) Records flow through the running job, then the broker stops for 10 s (the outage is
      // what the test is about) while the producer keeps trying, then it comes back and the
      // records flow again.
      cluster.awaitLatestJob("RUNNING");
      awaitAcknowledged(producer, producer.acknowledged().size() + RECORDS_AROUND_THE_OUTAGE);
      int beforeTheOutage = producer.acknowledged().size();
      long stopped = System.nanoTime();
      broker.stop();
      Thread.sleep(OUTAGE.toMillis());
      broker.restart();
      int atTheRestart = producer.acknowledged().size();
      System.out.printf(
          "broker back %d s after it stopped%n",
          Duration.ofNanos(System.nanoTime() - stopped).toSeconds());
      awaitAcknowledged(producer, atTheRestart + RECORDS_AROUND_THE_OUTAGE);
      producer.stop();
      sending.join(Duration.ofMinutes(2).toMillis());
      List<String> sent = producer.acknowledged();
      assertThat(
          "records flowed before the outage",
          beforeTheOutage,
          greaterThan(RECORDS_AROUND_THE_OUTAGE - 1));
      assertThat(
          "and after it", sent.size(), greaterThan(atTheRestart + RECORDS_AROUND_THE_OUTAGE - 1));

      // (2) Every window's latest pane is the count of its records: none lost, none twice.
      Map<String, Long> expected = MetricsRows.expected(sent);
      long back = System.nanoTime();
      Map<String, Long> latest =
          MetricsRows.latestFinal(
                  broker.bootstrapServers(), "live-per-second", expected, Duration.ofMinutes(3))
              .counts;
      System.out.printf(
          "every window right %d s after the last record%n",
          Duration.ofNanos(System.nanoTime() - back).toSeconds());
      assertThat(Files.readString(directory.resolve("live.log")), latest, equalTo(expected));
      System.out.println(
          "the job's failures during the outage (none if it rode it out): "
              + cluster.rest(
                  "/jobs/"
                      + JSON.readTree(cluster.rest("/jobs/overview"))
                          .get("jobs")
                          .get(0)
                          .get("jid")
                          .asText()
                      + "/exceptions"));
    } finally {
      producer.stop();
      submit.destroyForcibly();
    }
  }

  /** Waits until {@code producer} has {@code count} records acknowledged in all. */
  private static void awaitAcknowledged(LiveProducer producer, int count) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (producer.acknowledged().size() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "only " + producer.acknowledged().size() + " of " + count + " records acknowledged");
      }
      Thread.sleep(100);
    }
  }

  /**
   * Submits {@code metrics} from {@code topic} to {@code resultsTopic} at parallelism 2, closing
   * the last windows 3 s after the input goes quiet; its output goes to {@code <topic>.log}.
   */
  private Process submitMetrics(String topic, String resultsTopic, String... options)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "metrics",
                "--source=kafka://" + broker.bootstrapServers() + "/" + topic,
                "--sink=kafka://" + broker.bootstrapServers() + "/" + resultsTopic,
                "--idleTimeout=3s",
                "--parallelism=2"));
    args.addAll(List.of(options));
    // A cluster's stdout is its log: late records and dead letters go to files, unless given.
    args.add("--lateSink=file:" + directory.resolve(topic + "-late.json"));
    if (args.stream().noneMatch(arg -> arg.startsWith("--deadLetterSink="))) {
      args.add("--deadLetterSink=file:" + directory.resolve(topic + "-dead.json"));
    }
    return cluster.submit(directory.resolve(topic + ".log"), args.toArray(String[]::new));
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static JsonNode readJson(String value) {
    try {
      return JSON.readTree(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Sends S5 records stamped with the wall clock, about 100 a second, alternating between two
   * partitions, each one waiting for its acknowledgement (the producer retries while the broker is
   * away, and is idempotent: a retry never writes a record twice), and keeps those the broker
   * acknowledged.
   */
  private static final class LiveProducer implements Runnable {
    private final String bootstrapServers;
    private final String topic;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<String> acknowledged = new ArrayList<>();

    LiveProducer(KafkaBroker broker, String topic) {
      this.bootstrapServers = broker.bootstrapServers();
      this.topic = topic;
    }

    @Override
    public void run() {
      String[] ops = {"es_sink", "kafka_sink"};
      int sequence = 0;
      Map<String, Object> config =
          Map.of(
              ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
              bootstrapServers,
              ProducerConfig.ACKS_CONFIG,
              "all",
              ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
              true,
              ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
              120_000);
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
        while (running.get()) {
          String line =
              "{\"t\":"
                  + System.currentTimeMillis()
                  + ",\"st\":\"DIRECT\",\"i\":\"idx-"
                  + sequence % 3
                  + "\",\"op\":\""
                  + ops[sequence % 2]
                  + "\"}";
          producer.send(new ProducerRecord<>(topic, sequence % 2, null, line)).get();
          synchronized (acknowledged) {
            acknowledged.add(line);
          }
          sequence++;
          Thread.sleep(10);
        }
      } catch (Exception e) {
        throw new IllegalStateException("the producer failed after " + sequence + " records", e);
      }
    }

    void stop() {
      running.set(false);
    }

    List<String> acknowledged() {
      synchronized (acknowledged) {
        return List.copyOf(acknowledged);
      }
    }
  }
}
