package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code metrics} (S5) and {@code join} (S4) from their command lines, on files. */
class MetricsAndJoinPipelineTest {

  @TempDir static Path directory;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void metricsCountsPerIndexAndOpPerSecondAsTheSqlOfS5(String runner) throws Exception {
    long base = 1580896327330L;
    List<String> records = new ArrayList<>();
    String[][] ops = {{"idx_a", "es_sink"}, {"idx_a", "kafka_sink"}, {"idx_b", "es_sink"}};
    for (int i = 0; i < 60; i++) {
      String[] op = ops[i % ops.length];
      records.add(
          "{\"t\":"
              + (base + i * 97L)
              + ",\"st\":\"DIRECT\",\"i\":\""
              + op[0]
              + "\",\"op\":\""
              + op[1]
              + "\"}");
    }
    records.add("{\"st\":\"DIRECT\",\"i\":\"idx_a\",\"op\":\"es_sink\"}");
    Path input = directory.resolve("stats-" + runner + ".json");
    Files.write(input, records);
    Path out = directory.resolve("metrics-" + runner + ".json");

    CommandLine run =
        CommandLine.run(
            "metrics",
            "--source=file:" + input,
            "--sink=file:" + out,
            "--deadLetterSink=file:" + directory.resolve("metrics-dead-" + runner + ".json"),
            "--runner=" + runner,
            "--parallelism=2");

    assertThat(run.err, run.exitCode, equalTo(0));
    // The reference: GROUP BY TUMBLE(rowtime, 1 s), i, op; event_time_log = window end.
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 60; i++) {
      long t = base + i * 97L;
      long end = t - Math.floorMod(t, 1000L) + 1000;
      String[] op = ops[i % ops.length];
      String time =
          DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
              .withZone(ZoneOffset.UTC)
              .format(Instant.ofEpochMilli(end));
      expected.merge(op[0] + "|" + time + "|" + op[1], 1L, Long::sum);
    }
    Map<String, Long> latest = new TreeMap<>();
    for (JsonNode line : Outputs.read(out)) {
      // S5's four fields, then which pane the row is: timing, pane, final.
      List<String> fields = new ArrayList<>();
      line.fieldNames().forEachRemaining(fields::add);
      assertThat(
          fields,
          contains(
              "index_name",
              "event_time_log",
              "op_type",
              "count_result",
              "timing",
              "pane",
              "final"));
      assertThat(
          "no late data: one final ON_TIME row each", line.get("final").asBoolean(), equalTo(true));
      latest.put(
          line.get("index_name").asText()
              + "|"
              + line.get("event_time_log").asText()
              + "|"
              + line.get("op_type").asText(),
          line.get("count_result").asLong());
    }
    assertThat(latest, equalTo(expected));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void joinFillsEveryOrderOnceWithTheNewestCouponOrNull(String runner) throws Exception {
    long base = 1_700_000_000_000L;
    Path orders = directory.resolve("orders-" + runner + ".json");
    Path coupons = directory.resolve("coupons-" + runner + ".json");
    Files.write(
        orders,
        List.of(
            order("o1", "b1", base + 100),
            order("o2", "b1", base + 200),
            order("o3", "b2", base + 300),
            order("o4", "b3", base + 6000),
            "{\"orderId\":\"o5\"}"));
    Files.write(
        coupons,
        List.of(
            coupon("b1", "u7", base + 150),
            coupon("b1", "u9", base + 900),
            coupon("b3", "u3", base + 5500)));
    Path out = directory.resolve("joined-" + runner + ".json");
    Path dead = directory.resolve("joined-dead-" + runner + ".json");

    CommandLine run =
        CommandLine.run(
            "join",
            "--orders=file:" + orders,
            "--coupons=file:" + coupons,
            "--sink=file:" + out,
            "--deadLetterSink=file:" + dead,
            "--runner=" + runner,
            "--parallelism=2");

    assertThat(run.err, run.exitCode, equalTo(0));
    List<String> finals = new ArrayList<>();
    for (JsonNode joined : Outputs.read(out)) {
      if (joined.get("final").asBoolean()) {
        finals.add(
            joined.get("orderId").asText()
                + "->"
                + joined.get("orderSalesmanId").asText()
                + "@"
                + (joined.get("windowStart").asLong() - base));
      }
    }
    assertThat(finals, containsInAnyOrder("o1->u9@0", "o2->u9@0", "o3->null@0", "o4->u3@5000"));
    assertThat(Outputs.read(dead).size(), equalTo(1));
  }

  private static String order(String id, String batch, long time) {
    return "{\"orderId\":\""
        + id
        + "\",\"orderBatchId\":\""
        + batch
        + "\",\"orderLastModifyTime\":"
        + time
        + ",\"orderSalesmanId\":null}";
  }

  private static String coupon(String batch, String user, long time) {
    return "{\"orderBatchId\":\""
        + batch
        + "\",\"receiveUserId\":\""
        + user
        + "\",\"lastModifyTime\":"
        + time
        + "}";
  }
}
