package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * The broker going away for 10 s while a job reads it, on a real Flink session cluster, the job
 * submitted from the shaded jar. It stops the run's one broker, so it holds the broker alone: the
 * other classes that use the broker wait, and only for this one test.
 */
@ResourceLock(SharedKafkaBroker.LOCK)
@ResourceLock(SharedFlinkCluster.LOCK)
@Order(SharedFlinkCluster.ORDER)
@ExtendWith({SharedKafkaBroker.class, SharedFlinkCluster.class})
class KafkaOutageOnFlinkClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long the broker is gone. */
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
  void nothingIsLostOrCountedTwiceWhenTheBrokerIsGoneFor10Seconds() throws Exception {
    broker.createTopic("live", 2);
    broker.createTopic("live-per-second", 1);
    Process submit =
        ClusterMetrics.submit(
            cluster,
            broker,
            directory,
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
      // A record the producer held through the outage is not late either: the time the broker
      // could not be asked does not count as quiet time (IdleAwareTimestampPolicy).
      Path late = directory.resolve("live-late.json");
      assertThat(
          Files.readString(directory.resolve("live.log"))
              + "\nlate: "
              + (Files.exists(late) ? Files.readString(late) : "none"),
          latest,
          equalTo(expected));
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
