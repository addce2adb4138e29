package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.Sink;
import dev.tidemark.pipelines.steps.JsonLines;
import dev.tidemark.pipelines.steps.PerWindowCounts;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The three pipelines built from values, not URIs: a {@link TestStream} as the source and
 * collecting sinks, on the DirectRunner, with the watermark where each test puts it.
 */
@ExtendWith(TestPipelineExtension.class)
class PipelinesOnTestStreamTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final EventTimeSettings EVENT_TIME =
      new EventTimeSettings(
          Duration.standardSeconds(1),
          Duration.standardSeconds(10),
          Duration.standardSeconds(10),
          Duration.standardMinutes(15),
          "earliest",
          null);

  @Test
  void countOfS1WithALateRecordAndABadOne(TestPipeline pipeline) throws Exception {
    long base = 1586489565000L;
    TestStream.Builder<String> stream = TestStream.create(StringUtf8Coder.of());
    for (long second = 1; second <= 14; second++) {
      stream = stream.addElements(line("01", base + second * 1000));
    }
    // (1) The watermark passes every window of S1 but its last; (2) a record for the first window
    // comes after that: late; (3) a line that is not a record: a dead letter.
    TestStream<String> s1 =
        stream
            .advanceWatermarkTo(new Instant(base + 15_000))
            .addElements(line("01", base + 1500), TimestampedValue.of("oops", new Instant(base)))
            .addElements(line("01", base + 24_000))
            .advanceWatermarkToInfinity();
    OutputSinks sinks = collectingSinks();

    PerWindowCounts.assemble(
        pipeline,
        new PerWindowCounts.Settings(
            new TestStreamSource(s1),
            CsvEventFormat.keyAndTime(),
            EVENT_TIME,
            EventTimeWindowing.fixed(Duration.standardSeconds(5)),
            sinks),
        CountPipeline.json(false),
        JsonLines::windowKey,
        CountPipeline.table(false));
    pipeline.run().waitUntilFinish();

    List<String> finals = new ArrayList<>();
    for (JsonNode result : read(sinks.results())) {
      if (result.get("final").asBoolean()) {
        finals.add(result.get("windowStart").asLong() - base + "=" + result.get("count").asLong());
      }
    }
    assertThat(finals, containsInAnyOrder("0=4", "5000=5", "10000=5", "20000=1"));
    assertThat(
        read(sinks.late()).stream().map(late -> late.get("record").asText()).toList(),
        contains("01," + (base + 1500)));
    assertThat(
        read(sinks.deadLetters()).stream().map(dead -> dead.get("record").asText()).toList(),
        contains("oops"));
  }

  @Test
  void metricsRowsOfS5(TestPipeline pipeline) throws Exception {
    long t = 1580896327330L;
    TestStream<String> stats =
        TestStream.create(StringUtf8Coder.of())
            .addElements(
                stat(t, "idx", "es_sink"),
                stat(t + 100, "idx", "es_sink"),
                stat(t + 200, "idx", "kafka_sink"))
            .advanceWatermarkToInfinity();
    OutputSinks sinks = collectingSinks();

    PerWindowCounts.assemble(
        pipeline,
        new PerWindowCounts.Settings(
            new TestStreamSource(stats),
            MetricsPipeline.FORMAT,
            EVENT_TIME,
            EventTimeWindowing.fixed(Duration.standardSeconds(1)),
            sinks),
        result -> MetricsPipeline.json(result, ZoneId.of("UTC")),
        MetricsPipeline::windowKey,
        MetricsPipeline.TABLE);
    pipeline.run().waitUntilFinish();

    assertThat(
        ((CollectingSink) sinks.results()).lines(),
        containsInAnyOrder(
            "{\"index_name\":\"idx\",\"event_time_log\":\"2020-02-05 09:52:08\",\"op_type\":\"es_sink\","
                + "\"count_result\":2,\"timing\":\"ON_TIME\",\"pane\":0,\"final\":true}",
            "{\"index_name\":\"idx\",\"event_time_log\":\"2020-02-05 09:52:08\",\"op_type\":\"kafka_sink\","
                + "\"count_result\":1,\"timing\":\"ON_TIME\",\"pane\":0,\"final\":true}"));
  }

  @Test
  void joinOfS4(TestPipeline pipeline) throws Exception {
    long base = 1_700_000_000_000L;
    TestStream<String> orders =
        TestStream.create(StringUtf8Coder.of())
            .addElements(
                TimestampedValue.of(
                    "{\"orderId\":\"o1\",\"orderBatchId\":\"b1\",\"orderLastModifyTime\":"
                        + (base + 100)
                        + ",\"orderSalesmanId\":null}",
                    new Instant(base + 100)),
                TimestampedValue.of(
                    "{\"orderId\":\"o2\",\"orderBatchId\":\"b2\",\"orderLastModifyTime\":"
                        + (base + 200)
                        + ",\"orderSalesmanId\":null}",
                    new Instant(base + 200)))
            .advanceWatermarkToInfinity();
    TestStream<String> coupons =
        TestStream.create(StringUtf8Coder.of())
            .addElements(
                TimestampedValue.of(
                    "{\"orderBatchId\":\"b1\",\"receiveUserId\":\"u9\",\"lastModifyTime\":"
                        + (base + 150)
                        + "}",
                    new Instant(base + 150)))
            .advanceWatermarkToInfinity();
    OutputSinks sinks = collectingSinks();

    JoinPipeline.assemble(
        pipeline,
        new JoinPipeline.Settings(
            new TestStreamSource(orders),
            new TestStreamSource(coupons),
            EVENT_TIME,
            EventTimeWindowing.fixed(Duration.standardSeconds(5)),
            sinks));
    pipeline.run().waitUntilFinish();

    List<String> joined = new ArrayList<>();
    for (JsonNode order : read(sinks.results())) {
      if (order.get("final").asBoolean()) {
        joined.add(order.get("orderId").asText() + "->" + order.get("orderSalesmanId").asText());
      }
    }
    assertThat(joined, containsInAnyOrder("o1->u9", "o2->null"));
    assertThat(read(sinks.late()).size(), equalTo(0));
  }

  private static TimestampedValue<String> line(String key, long time) {
    return TimestampedValue.of(key + "," + time, new Instant(time));
  }

  private static TimestampedValue<String> stat(long time, String index, String op) {
    return TimestampedValue.of(
        "{\"t\":" + time + ",\"st\":\"DIRECT\",\"i\":\"" + index + "\",\"op\":\"" + op + "\"}",
        new Instant(time));
  }

  private static OutputSinks collectingSinks() {
    return new OutputSinks(new CollectingSink(), new CollectingSink(), new CollectingSink());
  }

  private static List<JsonNode> read(Sink sink) throws Exception {
    List<JsonNode> nodes = new ArrayList<>();
    for (String line : ((CollectingSink) sink).lines()) {
      nodes.add(JSON.readTree(line));
    }
    return nodes;
  }
}
