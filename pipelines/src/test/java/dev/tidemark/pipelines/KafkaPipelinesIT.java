package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.pipelines.cli.Tidemark;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.SinkUri;
import dev.tidemark.pipelines.steps.JsonLines;
import dev.tidemark.pipelines.steps.WriteOutputs;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.GaugeResult;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.KV;
import org.apache.kafka.common.TopicPartition;
import org.joda.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code count} and {@code metrics} against a real Kafka broker, on the DirectRunner: topics with
 * several partitions, some of them empty, read from the earliest offset while the job keeps
 * running; every window fires, the last ones by the idle rule.
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ExtendWith({SharedKafkaBroker.class, SharedPostgresServer.class})
@Order(SuiteOrder.LONG)
class KafkaPipelinesIT {

  /** Where the clicks' event time starts: 2020-04-10T03:32:45Z. */
  private static final long BASE = 1586489565000L;

  private static KafkaBroker broker;

  @TempDir Path directory;

  @BeforeAll
  static void shareBroker(KafkaBroker shared) {
    broker = shared;
  }

  @Test
  void countFiresEveryWindowWithTwoOfFourPartitionsEmpty() throws Exception {
    broker.createTopic("clicks", 4);
    long base = 1586489565000L;
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 20; i++) {
      a.add("a," + (base + i * 1000L));
      expected.merge("a," + (base + (i / 5) * 5000L), 1L, Long::sum);
      if (i == 7) {
        // Records from wrong clocks: dead letters that move no watermark.
        a.add("a,4102444800000");
        a.add("a,9223372036854775807");
      }
      if (i % 3 == 0) {
        b.add("b," + (base + i * 1000L + 300));
        expected.merge("b," + (base + (i / 5) * 5000L), 1L, Long::sum);
      }
    }
    broker.send("clicks", 0, a);
    broker.send("clicks", 2, b);
    Path out = directory.resolve("counts.json");
    Path dead = directory.resolve("counts-dead.json");

    PipelineResult running = startCount("clicks", out, dead);
    try {
      Supplier<Map<String, Long>> finals = () -> finalCounts(out);
      assertThat(awaitEqual(finals, expected, 120), equalTo(expected));
      assertThat(running.getState(), equalTo(PipelineResult.State.RUNNING));
      List<String> reasons = new ArrayList<>();
      for (JsonNode letter : Outputs.read(dead)) {
        // Where to find the record again: partition 0, right after the 8 records before it.
        reasons.add(
            letter.get("record").asText()
                + " at "
                + letter.get("topic").asText()
                + "-"
                + letter.get("partition").asInt()
                + "@"
                + letter.get("offset").asLong()
                + ": "
                + letter.get("reason").asText());
      }
      reasons.sort(null);
      assertThat(reasons.size(), equalTo(2));
      assertThat(
          reasons.get(0),
          startsWith("a,4102444800000 at clicks-0@8: event time 4102444800000 is 73 years"));
      assertThat(
          reasons.get(1), startsWith("a,9223372036854775807 at clicks-0@9: field 'epochMillis'"));
      // Why each partition's watermark is where it is: the empty ones say so.
      Map<String, Long> gauges = new TreeMap<>();
      for (MetricResult<GaugeResult> gauge :
          running.metrics().queryMetrics(MetricsFilter.builder().build()).getGauges()) {
        gauges.put(gauge.getName().getName(), gauge.getAttempted().getValue());
      }
      assertThat(gauges.get(TidemarkMetrics.activityOf("clicks-1")), equalTo(2L));
      assertThat(gauges.get(TidemarkMetrics.activityOf("clicks-3")), equalTo(2L));
      assertThat(gauges.containsKey(TidemarkMetrics.watermarkOf("clicks-0")), equalTo(true));
    } finally {
      Runners.cancel(running);
    }
  }

  /**
   * {@code count} from a topic into PostgreSQL tables, run twice over the topic from its start: the
   * second run leaves every table as the first left it. (1) The first run writes each window's
   * final row, the dead letter keyed by its offset, then the late record that comes after the
   * windows closed. (2) The second run reads it all again, one record more at the end of an hour
   * later, whose window's row says the run got past everything before it.
   */
  @Test
  void aSecondRunOverTheTopicLeavesTheTablesAsTheFirstLeftThem(PostgresServer server)
      throws Exception {
    String topic = "tabled";
    broker.createTopic(topic, 1);
    List<String> records = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 40; i++) {
      String key = i % 3 == 0 ? "b" : "a";
      records.add(key + "," + (BASE + i * 500L));
      expected.merge(key + "," + (BASE + (i * 500L / 5000) * 5000), 1L, Long::sum);
      if (i == 11) {
        records.add("not a record");
      }
    }
    broker.send(topic, 0, records);
    String[] tables = {
      "--sink=" + server.sink("tabled_counts"),
      "--lateSink=" + server.sink("tabled_late"),
      "--deadLetterSink=" + server.sink("tabled_dead"),
      "--jdbcProperties=" + server.superuserProperties(directory)
    };
    String counts =
        "SELECT key, (extract(epoch FROM window_start) * 1000)::bigint, count FROM tabled_counts"
            + " WHERE final";
    Supplier<Map<String, Long>> finals =
        () -> {
          Map<String, Long> rows = new TreeMap<>();
          try {
            for (String row : server.rows(counts)) {
              String[] columns = row.split("\\|");
              rows.put(columns[0] + "," + columns[1], Long.parseLong(columns[2]));
            }
          } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
          }
          return rows;
        };
    String everyRow =
        "SELECT * FROM tabled_counts ORDER BY key, window_start;"
            + "SELECT * FROM tabled_late ORDER BY origin;"
            + "SELECT * FROM tabled_dead ORDER BY origin";
    List<String> afterTheFirst;
    PipelineResult first = startCountToTables(topic, tables);
    try {
      assertThat(awaitEqual(finals, expected, 120), equalTo(expected));
      broker.send(topic, 0, List.of("a," + (BASE + 1000)));
      Supplier<List<String>> late = () -> rowsOf(server, "SELECT origin, record FROM tabled_late");
      assertThat(
          awaitEqual(late, List.of(topic + "-0@41|a," + (BASE + 1000)), 60),
          equalTo(List.of(topic + "-0@41|a," + (BASE + 1000))));
      assertThat(
          server.rows("SELECT origin, record FROM tabled_dead"),
          equalTo(List.of(topic + "-0@12|not a record")));
      afterTheFirst = rowsOf(server, everyRow);
    } finally {
      Runners.cancel(first);
    }

    broker.send(topic, 0, List.of("a," + (BASE + 3_600_000)));
    Map<String, Long> withTheLastOne = new TreeMap<>(expected);
    withTheLastOne.put("a," + (BASE + 3_600_000), 1L);
    PipelineResult second = startCountToTables(topic, tables);
    try {
      assertThat(awaitEqual(finals, withTheLastOne, 120), equalTo(withTheLastOne));
    } finally {
      Runners.cancel(second);
    }
    server.execute(
        "DELETE FROM tabled_counts WHERE window_start > to_timestamp(" + (BASE / 1000 + 60) + ")");
    assertThat(rowsOf(server, everyRow), equalTo(afterTheFirst));
  }

  private static List<String> rowsOf(PostgresServer server, String queries) {
    List<String> rows = new ArrayList<>();
    try {
      for (String query : queries.split(";")) {
        rows.addAll(server.rows(query));
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }

  private static PipelineResult startCountToTables(String topic, String... tables) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--source=kafka://" + broker.bootstrapServers() + "/" + topic,
                "--idleTimeout=3s",
                "--blockOnRun=false",
                "--runner=DirectRunner"));
    args.addAll(List.of(tables));
    return CountPipeline.build(
            PipelineOptionsFactory.fromArgs(args.toArray(String[]::new))
                .withValidation()
                .as(CountPipeline.Options.class))
        .run();
  }

  /**
   * {@code explain} on the topic a live {@code count} reads: a 4-partition topic whose partition 2
   * lags 3 s of event time behind the others and whose partition 3 is empty. It names both, and its
   * final counts, late records and dead letters are the live job's.
   */
  @Test
  void explainOnTheTopicNamesTheLaggingAndTheEmptyPartitionAndAgreesWithCount() throws Exception {
    broker.createTopic("lagging", 4);
    long arrival = System.currentTimeMillis() - 600_000;
    for (int partition = 0; partition < 3; partition++) {
      List<Long> stamps = new ArrayList<>();
      List<String> values = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        stamps.add(arrival + i * 500L + partition * 100L);
        values.add("k" + partition + "," + (BASE + i * 500L - (partition == 2 ? 3000 : 0)));
      }
      if (partition == 1) {
        stamps.add(arrival + 20_000);
        values.add("not a record");
      }
      broker.sendStamped("lagging", partition, stamps, values);
    }
    Path out = directory.resolve("lagging.json");
    Path late = directory.resolve("lagging-late.json");
    Path dead = directory.resolve("lagging-dead.json");
    String[] eventTime = {"--windowSize=1s", "--maxOutOfOrderness=1s"};
    // count's own --idleTimeout (startCount) is 3 s too.
    String[] explain =
        concat(
            eventTime,
            "--idleTimeout=3s",
            "--source=kafka://" + broker.bootstrapServers() + "/lagging");
    PipelineResult running =
        startCount("lagging", out, dead, concat(eventTime, "--lateSink=file:" + late));
    try {
      // Every window of the 20 s closes once the topic has been quiet for 3 s: 120 records.
      assertThat(
          awaitEqual(
              () -> finalCounts(out).values().stream().mapToLong(Long::longValue).sum(), 120L, 120),
          equalTo(120L));
      // One more record, long after the others, for a window that closed long ago: late, live.
      broker.sendStamped(
          "lagging", 0, List.of(System.currentTimeMillis()), List.of("k0," + (BASE + 2000)));
      assertThat(awaitEqual(() -> positions(late).size(), 1, 60), equalTo(1));

      ExplainRecording.Options options =
          PipelineOptionsFactory.fromArgs(explain).as(ExplainRecording.Options.class);
      ReplayTimeline timeline = ExplainRecording.timeline(options);
      Map<String, Long> explained = new TreeMap<>();
      for (ReplayTimeline.Pane pane : timeline.panes()) {
        if (pane.isFinal()) {
          explained.put(pane.key() + "," + pane.windowStart().getMillis(), pane.count());
        }
      }
      assertThat(explained, equalTo(finalCounts(out)));
      assertThat(
          timeline.late().stream().map(line -> timeline.nameOf(line.line())).toList(),
          equalTo(positions(late)));
      assertThat(
          timeline.deadLetters().stream().map(line -> timeline.nameOf(line.line())).toList(),
          equalTo(positions(dead)));

      ByteArrayOutputStream text = new ByteArrayOutputStream();
      int exit =
          Tidemark.run(
              concat(new String[] {"explain"}, explain),
              new PrintStream(text, true, StandardCharsets.UTF_8),
              System.err);
      String explanation = text.toString(StandardCharsets.UTF_8);
      assertThat(explanation, exit, equalTo(0));
      assertThat(explanation, containsString("  partition 3: offsets 0 to 0 (empty)"));
      assertThat(explanation, containsString("partitions that never receive data: 3 ("));
      // Partition 2 holds the watermark 3 s back from its first record on.
      assertThat(
          explanation,
          matchesPattern(
              "(?s).*\\n  partition 2 from lagging-\\d@\\d+ to lagging-2@39, up to 3500ms behind the"
                  + " partition with the newest records\\n.*"));
      assertThat(explanation, containsString("\n  lagging-0@40  k0 at "));
      // Partition 2's last windows close when the topic has been quiet for 3 s, not by a record.
      assertThat(
          explanation, containsString("on time, closed by the idle rule, after lagging-1@40:"));
      assertThat(explanation, containsString("\n  lagging-1@40  not a record  -> "));
      assertThat(
          explanation, containsString("\n122 records = 120 counted in final panes + 1 late + 1"));
    } finally {
      Runners.cancel(running);
    }
  }

  /** Where each record of a late or dead-letter file was: {@code topic-partition@offset}. */
  private static List<String> positions(Path file) {
    List<String> positions = new ArrayList<>();
    try {
      if (!Files.exists(file)) {
        return positions;
      }
      for (JsonNode record : Outputs.read(file)) {
        positions.add(
            record.get("topic").asText()
                + "-"
                + record.get("partition").asInt()
                + "@"
                + record.get("offset").asLong());
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    positions.sort(null);
    return positions;
  }

  private static String[] concat(String[] first, String... more) {
    List<String> all = new ArrayList<>(List.of(first));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  @Test
  void aValueLongerThanTheLimitIsADeadLetterAtItsOffset() throws Exception {
    broker.createTopic("long-values", 1);
    long base = 1586489565000L;
    String longValue = "a," + "9".repeat(500_000);
    broker.send("long-values", 0, List.of("a," + base, longValue, "a," + (base + 1000)));
    Path out = directory.resolve("long-counts.json");
    Path dead = directory.resolve("long-dead.json");

    PipelineResult running = startCount("long-values", out, dead, "--maxRecordBytes=100000");
    try {
      Map<String, Long> expected = Map.of("a," + base, 2L);
      assertThat(awaitEqual(() -> finalCounts(out), expected, 120), equalTo(expected));
      List<JsonNode> letters = Outputs.read(dead);
      assertThat(letters.size(), equalTo(1));
      JsonNode letter = letters.get(0);
      assertThat(
          letter.get("topic").asText() + "-" + letter.get("partition") + "@" + letter.get("offset"),
          equalTo("long-values-0@1"));
      assertThat(
          letter.get("reason").asText(),
          equalTo(
              "a value of 500002 bytes, longer than the limit of 100000; only its first 1024"
                  + " bytes are kept"));
      assertThat(letter.get("record").asText(), equalTo(longValue.substring(0, 1024)));
    } finally {
      Runners.cancel(running);
    }
  }

  /** {@code metrics}, and {@code sql} with S5's query text: the same rows, under the same keys. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"metrics", "sql"})
  void s5RowsGoToAnOutputTopicKeyedByTheirWindow(String pipeline) throws Exception {
    String in = "direct-stats-" + pipeline;
    String out = "direct-stats-per-second-" + pipeline;
    broker.createTopic(in, 2);
    broker.createTopic(out, 1);
    long base = 1580896327330L;
    List<String> records = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      long t = base + i * 150L;
      String op = i % 2 == 0 ? "es_sink" : "kafka_sink";
      records.add("{\"t\":" + t + ",\"st\":\"DIRECT\",\"i\":\"idx\",\"op\":\"" + op + "\"}");
    }
    Map<String, Long> expected = MetricsRows.expected(records);
    broker.send(in, 1, records);

    String[] args = {
      "--source=kafka://" + broker.bootstrapServers() + "/" + in,
      "--sink=kafka://" + broker.bootstrapServers() + "/" + out,
      "--idleTimeout=3s",
      "--runner=DirectRunner",
      "--blockOnRun=false"
    };
    PipelineResult running =
        (pipeline.equals("sql")
                ? SqlPipeline.build(
                    PipelineOptionsFactory.fromArgs(args)
                        .withValidation()
                        .as(SqlPipeline.Options.class))
                : MetricsPipeline.build(
                    PipelineOptionsFactory.fromArgs(args)
                        .withValidation()
                        .as(MetricsPipeline.Options.class)))
            .run();
    try {
      assertThat(
          MetricsRows.latest(broker.bootstrapServers(), out, expected, Duration.ofSeconds(120)),
          equalTo(expected));
      // Each row is keyed by its (index, op, window): every pane of a window under one key, one
      // key per window, so a compacted topic keeps each window's latest row.
      Map<String, String> windowOfKey = new TreeMap<>();
      Set<String> windows = new TreeSet<>();
      TopicValues.readKeyed(
          broker.bootstrapServers(),
          out,
          Duration.ofSeconds(30),
          (key, value) -> {
            JsonNode row = MetricsRows.readJson(value);
            String window =
                row.get("index_name").asText()
                    + " "
                    + row.get("op_type").asText()
                    + " "
                    + row.get("event_time_log").asText();
            windows.add(window);
            assertThat(value, key, startsWith("{\"index_name\":\"idx\",\"op_type\":\""));
            String previous = windowOfKey.put(key, window);
            assertThat(key, previous == null || previous.equals(window), equalTo(true));
          },
          () -> windows.size() >= expected.size());
      assertThat(windowOfKey.size(), equalTo(windows.size()));
      assertThat(windows.size(), equalTo(expected.size()));
    } finally {
      Runners.cancel(running);
    }
  }

  /**
   * A session row that a merge withdraws is a tombstone in a keyed results topic: the withdrawn
   * window's key with no value, after that window's row, so a compacted topic deletes the window
   * and keeps the session it merged into, whose key is its own.
   */
  @Test
  void aWithdrawnSessionRowIsATombstoneOfItsWindowsKey() throws Exception {
    String out = "session-rows";
    broker.createTopic(out, 1);
    EventKey key = EventKey.of("01");
    IntervalWindow grown = new IntervalWindow(new Instant(0), new Instant(9_000));
    WindowResult early =
        WindowResult.of(
            key,
            new WindowPane(new Instant(0), new Instant(5_000), Timing.EARLY, 0, false),
            KV.of(2L, 0L));
    WindowResult withdrawal =
        WindowResult.of(
            key,
            new WindowPane(new Instant(0), new Instant(5_000), Timing.EARLY, 1, true, grown),
            KV.of(2L, 0L));
    WindowResult merged =
        WindowResult.of(
            key,
            new WindowPane(grown.start(), grown.end(), Timing.ON_TIME, 0, true),
            KV.of(3L, 0L));
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("DirectRunner", 1));
    WriteOutputs.results(
        pipeline.apply(
            TestStream.create(WindowResult.Coder.of())
                .addElements(early)
                .addElements(withdrawal, merged)
                .advanceWatermarkToInfinity()),
        CountPipeline.json(false),
        JsonLines::windowKey,
        result -> result.pane().isWithdrawn(),
        CountPipeline.table(false),
        new OutputSinks(
            SinkUri.parse(
                "sink", "kafka://" + broker.bootstrapServers() + "/" + out, Map.of(), 0, Map.of()),
            SinkUri.parse("lateSink", "stdout", Map.of(), 0, Map.of()),
            SinkUri.parse("deadLetterSink", "stdout", Map.of(), 0, Map.of())));
    assertThat(pipeline.run().waitUntilFinish(), equalTo(PipelineResult.State.DONE));

    Map<String, List<String>> valuesOfKey = new TreeMap<>();
    List<String> read = new ArrayList<>();
    TopicValues.readKeyed(
        broker.bootstrapServers(),
        out,
        Duration.ofSeconds(30),
        (recordKey, value) -> {
          read.add(recordKey);
          valuesOfKey
              .computeIfAbsent(recordKey, k -> new ArrayList<>())
              .add(
                  value == null ? "tombstone" : MetricsRows.readJson(value).get("timing").asText());
        },
        () -> read.size() >= 3);
    assertThat(
        valuesOfKey,
        equalTo(
            Map.of(
                "{\"key\":\"01\",\"windowStart\":0,\"windowEnd\":5000}",
                List.of("EARLY", "tombstone"),
                "{\"key\":\"01\",\"windowStart\":0,\"windowEnd\":9000}",
                List.of("ON_TIME"))));
  }

  @Test
  void clientPropertiesReachTheConsumers() throws Exception {
    broker.createTopic("props", 1);
    List<String> lines = secondsOfA(0, 10);
    broker.send("props", 0, lines);
    // (1) A consumer group and its commits, set in the file alone.
    Path properties = directory.resolve("client.properties");
    Files.write(
        properties,
        List.of(
            "group.id=tidemark-props-it",
            "enable.auto.commit=true",
            "auto.commit.interval.ms=200"));
    Path out = directory.resolve("props.json");
    PipelineResult running =
        startCount(
            "props", out, directory.resolve("props-dead.json"), "--kafkaProperties=" + properties);
    try {
      // (2) The group has committed every record of the topic: the consumers ran with it.
      assertThat(
          awaitCommitted("tidemark-props-it", "props", lines.size()), equalTo((long) lines.size()));
    } finally {
      Runners.cancel(running);
    }
  }

  @Test
  void aResubmittedJobResumesWhereItsGroupCommitted() throws Exception {
    broker.createTopic("resume", 1);
    List<String> first = secondsOfA(0, 10);
    broker.send("resume", 0, first);
    Path properties = directory.resolve("resume.properties");
    Files.write(properties, List.of("group.id=tidemark-resume-it"));
    Path before = directory.resolve("resume-before.json");
    // (1) A first job reads the topic and, as each checkpoint completes, commits what it has
    // processed to the group.
    PipelineResult running = startFromCommitted("resume", before, properties);
    Map<String, Long> firstCounts = Map.of("a," + BASE, 5L, "a," + (BASE + 5000), 5L);
    try {
      assertThat(awaitEqual(() -> finalCounts(before), firstCounts, 120), equalTo(firstCounts));
      assertThat(awaitCommitted("tidemark-resume-it", "resume", first.size()), equalTo(10L));
    } finally {
      Runners.cancel(running);
    }
    // (2) More records come while no job runs; a new job of the same group starts where the
    // first one stopped: it counts the new records, and none of the first ones again.
    broker.send("resume", 0, secondsOfA(20, 25));
    Path after = directory.resolve("resume-after.json");
    PipelineResult resumed = startFromCommitted("resume", after, properties);
    try {
      Map<String, Long> laterCounts = Map.of("a," + (BASE + 20_000), 5L);
      assertThat(awaitEqual(() -> finalCounts(after), laterCounts, 120), equalTo(laterCounts));
    } finally {
      Runners.cancel(resumed);
    }
    // (3) Without a group there is nothing to resume: refused before the job starts.
    CommandLine ungrouped =
        CommandLine.run(
            "count",
            "--source=kafka://" + broker.bootstrapServers() + "/resume",
            "--startFrom=committed");
    assertThat(ungrouped.err, ungrouped.exitCode, equalTo(2));
    assertThat(
        ungrouped.err.strip(),
        equalTo(
            "tidemark: --startFrom: committed resumes a consumer group; name it with group.id in"
                + " a --kafkaProperties file"));
  }

  /**
   * {@code a,epochMillis} lines, one a second from {@code BASE}, seconds {@code from} to before
   * {@code to}.
   */
  private static List<String> secondsOfA(int from, int to) {
    List<String> lines = new ArrayList<>();
    for (int second = from; second < to; second++) {
      lines.add("a," + (BASE + second * 1000L));
    }
    return lines;
  }

  /**
   * Starts {@code count} from {@code topic}'s committed offsets on embedded Flink, checkpointing
   * every 500 ms (each completed checkpoint commits), with the group of {@code properties}.
   */
  private PipelineResult startFromCommitted(String topic, Path out, Path properties) {
    return startCount(
        topic,
        out,
        directory.resolve(out.getFileName() + "-dead.json"),
        "--kafkaProperties=" + properties,
        "--startFrom=committed",
        "--runner=FlinkRunner",
        "--attachedMode=false",
        "--checkpointingInterval=500");
  }

  /** Waits until {@code group} has committed {@code offset} on partition 0; returns its offset. */
  private static long awaitCommitted(String group, String topic, long offset) throws Exception {
    TopicPartition partition = new TopicPartition(topic, 0);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    long committed = broker.committedOffset(group, partition);
    while (committed < offset && System.nanoTime() < deadline) {
      Thread.sleep(200);
      committed = broker.committedOffset(group, partition);
    }
    return committed;
  }

  @Test
  void aTopicThatDoesNotExistFailsBeforeTheJobStarts() throws Exception {
    broker.createTopic("exists", 1);
    CommandLine source =
        CommandLine.run(
            "count", "--source=kafka://" + broker.bootstrapServers() + "/no-such-topic");
    assertThat(source.err, source.exitCode, equalTo(2));
    assertThat(
        source.err.strip(),
        equalTo(
            "tidemark: --source: topic 'no-such-topic' does not exist on the broker at "
                + broker.bootstrapServers()
                + "; create it first (tidemark does not create topics)"));
    CommandLine sink =
        CommandLine.run(
            "count",
            "--source=kafka://" + broker.bootstrapServers() + "/exists",
            "--lateSink=kafka://" + broker.bootstrapServers() + "/no-late-topic");
    assertThat(sink.err, sink.exitCode, equalTo(2));
    assertThat(
        sink.err.strip(),
        equalTo(
            "tidemark: --lateSink: topic 'no-late-topic' does not exist on the broker at "
                + broker.bootstrapServers()
                + "; create it first (tidemark does not create topics)"));
  }

  /**
   * {@code join} of two topics (S4): each topic's batches are parsed in a step of their own, since
   * a join takes events one by one. Until 2026-12-04 it failed as it was built.
   */
  @Test
  void joinOfTwoTopicsJoinsEachOrderWithTheCouponOfItsBatch() throws Exception {
    broker.createTopic("orders", 1);
    broker.createTopic("coupons", 1);
    broker.send(
        "orders",
        0,
        List.of(
            "{\"orderId\":\"o1\",\"orderBatchId\":\"b1\",\"orderLastModifyTime\":"
                + (BASE + 100)
                + ",\"orderSalesmanId\":null}",
            "{\"orderId\":\"o2\",\"orderBatchId\":\"b2\",\"orderLastModifyTime\":"
                + (BASE + 200)
                + ",\"orderSalesmanId\":null}"));
    broker.send(
        "coupons",
        0,
        List.of(
            "{\"orderBatchId\":\"b1\",\"receiveUserId\":\"u9\",\"lastModifyTime\":"
                + (BASE + 150)
                + "}"));
    Path out = directory.resolve("joined.json");
    JoinPipeline.Options options =
        PipelineOptionsFactory.fromArgs(
                "--orders=kafka://" + broker.bootstrapServers() + "/orders",
                "--coupons=kafka://" + broker.bootstrapServers() + "/coupons",
                "--sink=file:" + out,
                "--idleTimeout=3s",
                "--blockOnRun=false",
                "--runner=DirectRunner")
            .withValidation()
            .as(JoinPipeline.Options.class);

    PipelineResult running = JoinPipeline.build(options).run();
    try {
      Supplier<List<String>> joined =
          () -> {
            List<String> rows = new ArrayList<>();
            try {
              for (JsonNode row : Outputs.read(out)) {
                if (row.get("final").asBoolean()) {
                  rows.add(
                      row.get("orderId").asText() + "->" + row.get("orderSalesmanId").asText());
                }
              }
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
            rows.sort(null);
            return rows;
          };
      assertThat(
          awaitEqual(joined, List.of("o1->u9", "o2->null"), 120), contains("o1->u9", "o2->null"));
    } finally {
      Runners.cancel(running);
    }
  }

  /**
   * Starts {@code count} on the DirectRunner (unless {@code more} names a runner) from {@code
   * topic}, into the files {@code out} and {@code dead}, closing the last windows 3 s after the
   * topic goes quiet; it runs until cancelled.
   */
  private static PipelineResult startCount(String topic, Path out, Path dead, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--source=kafka://" + broker.bootstrapServers() + "/" + topic,
                "--sink=file:" + out,
                "--deadLetterSink=file:" + dead,
                "--idleTimeout=3s",
                "--blockOnRun=false"));
    args.addAll(List.of(more));
    if (args.stream().noneMatch(arg -> arg.startsWith("--runner="))) {
      args.add("--runner=DirectRunner");
    }
    CountPipeline.Options options =
        PipelineOptionsFactory.fromArgs(args.toArray(String[]::new))
            .withValidation()
            .as(CountPipeline.Options.class);
    return CountPipeline.build(options).run();
  }

  private static Map<String, Long> finalCounts(Path out) {
    Map<String, Long> counts = new TreeMap<>();
    try {
      for (JsonNode result : Outputs.read(out)) {
        if (result.get("final").asBoolean()) {
          counts.put(
              result.get("key").asText() + "," + result.get("windowStart").asLong(),
              result.get("count").asLong());
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return counts;
  }

  private static <T> T awaitEqual(Supplier<T> actual, T expected, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    T value = actual.get();
    while (!value.equals(expected) && System.nanoTime() < deadline) {
      Thread.sleep(250);
      value = actual.get();
    }
    return value;
  }
}
