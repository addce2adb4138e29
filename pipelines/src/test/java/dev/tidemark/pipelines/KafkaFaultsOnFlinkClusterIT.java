package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * What goes wrong in production, on a real Kafka broker and a real Flink session cluster (two
 * TaskManagers), in one job submitted from the shaded jar: S4's topic where one partition has all
 * the data, read by more readers than it has partitions (S5), with garbage among the records.
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ResourceLock(SharedFlinkCluster.LOCK)
@Order(SharedFlinkCluster.ORDER)
@ExtendWith({SharedKafkaBroker.class, SharedFlinkCluster.class})
class KafkaFaultsOnFlinkClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static KafkaBroker broker;
  private static FlinkCluster cluster;

  @TempDir Path directory;

  @BeforeAll
  static void shareStack(KafkaBroker sharedBroker, FlinkCluster sharedCluster) {
    broker = sharedBroker;
    cluster = sharedCluster;
  }

  /**
   * S4, S5 and garbage in one job: every record on one partition of three, read at {@code
   * --parallelism=4}, with a bad record among every 80 good ones. Two partitions never see a record
   * (S4's trap: the job's watermark is the lowest of its partitions'), and one of the four readers
   * has no partition at all (S5's: a reader without a partition stays at the minimum watermark and
   * holds every window back).
   */
  @Test
  void everyWindowFiresOnOnePartitionOfThreeWithMoreReadersAndEachBadRecordIsADeadLetter()
      throws Exception {
    List<String> good = MetricsRows.records(1500, 21);
    Map<String, Long> expected = MetricsRows.expected(good);
    Map<Long, String> expectedReasons = new TreeMap<>();
    List<byte[]> records = withGarbage(good, expectedReasons);
    broker.createTopic("s4", 3);
    broker.createTopic("s4-per-second", 1);
    broker.createTopic("s4-dead", 1);
    broker.sendBytes("s4", 1, records);

    Process submit =
        ClusterMetrics.submit(
            cluster,
            broker,
            directory,
            "s4",
            "s4-per-second",
            "--parallelism=4",
            "--deadLetterSink=kafka://" + broker.bootstrapServers() + "/s4-dead");
    try {
      // A file run of the good records, here while the cluster's job starts (not after it, when
      // it would hold the cluster for nothing).
      Path recording = directory.resolve("s4.json");
      Files.write(recording, good);
      MetricsRows.Latest fromFile =
          MetricsRows.of(
              Outputs.run(directory, "s4-file", "metrics", "--source=file:" + recording).results());
      // (1) Every window fires and closes, though two partitions and one reader never see a
      // record, with every good record counted as if the garbage had never been there.
      MetricsRows.Latest fromTopic =
          MetricsRows.latestFinal(
              broker.bootstrapServers(), "s4-per-second", expected, Duration.ofMinutes(3));
      assertThat(
          Files.readString(directory.resolve("s4.log")), fromTopic.counts, equalTo(expected));
      assertThat(fromTopic.closed, equalTo(expected.keySet()));
      // (2) And the rows are those of the file run.
      assertThat(fromTopic.counts, equalTo(fromFile.counts));
      assertThat(fromTopic.closed, equalTo(fromFile.closed));
      // (3) Every bad record is a dead letter, once, at its topic, partition and offset.
      Map<Long, String> reasons = new TreeMap<>();
      TopicValues.read(
          broker.bootstrapServers(),
          "s4-dead",
          Duration.ofSeconds(60),
          value -> {
            JsonNode letter = readJson(value);
            assertThat(letter.toString(), letter.get("topic").asText(), equalTo("s4"));
            assertThat(letter.toString(), letter.get("partition").asInt(), equalTo(1));
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
      // (4) And the job keeps running.
      assertThat(cluster.rest("/jobs/overview"), org.hamcrest.Matchers.containsString("RUNNING"));
    } finally {
      submit.destroyForcibly();
    }
  }

  /**
   * {@code good} as the bytes of a partition's records, with one bad record of each kind before
   * every 80th good one; each bad record's offset and the start of the reason it must be given go
   * into {@code reasons}.
   */
  private static List<byte[]> withGarbage(List<String> good, Map<Long, String> reasons)
      throws IOException {
    long t = JSON.readTree(good.get(0)).get("t").asLong();
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
    List<byte[]> records = new ArrayList<>();
    List<Map.Entry<String, byte[]>> bad = new ArrayList<>(garbage.entrySet());
    for (int i = 0; i < good.size(); i++) {
      if (i % 80 == 40 && !bad.isEmpty()) {
        Map.Entry<String, byte[]> next = bad.remove(0);
        reasons.put((long) records.size(), next.getKey());
        records.add(next.getValue());
      }
      records.add(utf8(good.get(i)));
    }
    assertThat("every kind of garbage is sent", bad.isEmpty(), equalTo(true));
    return records;
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
}
