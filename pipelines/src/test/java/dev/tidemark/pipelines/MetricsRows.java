package dev.tidemark.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.LineShape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * {@code metrics}' rows as a consumer of its results topic keeps them: per {@code
 * index_name|event_time_log|op_type}, the count of the latest pane (the highest {@code pane}); and
 * what a recording of S5 records should give.
 */
final class MetricsRows {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private MetricsRows() {}

  /**
   * {@code count} S5 records of 3 (i, op) keys, 10 ms apart in event time and out of order by up to
   * 1.5 s, the same for the same {@code seed}.
   */
  static List<String> records(int count, long seed) {
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(count)
        .withKeys(3)
        .withStep(org.joda.time.Duration.millis(10))
        .withOutOfOrderness(org.joda.time.Duration.millis(1500))
        .withShape(LineShape.S5_STATS)
        .withSeed(seed)
        .open()
        .forEachRemaining(lines::add);
    return lines;
  }

  /** Per (i, window end, op), the number of {@code lines}, S5 records, in 1 s windows. */
  static Map<String, Long> expected(List<String> lines) throws IOException {
    Map<String, Long> expected = new TreeMap<>();
    for (String line : lines) {
      JsonNode record = JSON.readTree(line);
      long t = record.get("t").asLong();
      long end = t - Math.floorMod(t, 1000L) + 1000;
      expected.merge(
          record.get("i").asText()
              + "|"
              + SECONDS.format(Instant.ofEpochMilli(end))
              + "|"
              + record.get("op").asText(),
          1L,
          Long::sum);
    }
    return expected;
  }

  /**
   * Per {@code index_name|event_time_log|op_type}, with the session's end to the millisecond as its
   * time, the number of {@code lines}, S5 records, in each session of (i, op) with a gap of {@code
   * gapMillis}: records a gap apart or closer are in one session, which ends a gap after its last
   * record.
   */
  static Map<String, Long> expectedSessions(List<String> lines, long gapMillis) throws IOException {
    Map<String, List<Long>> timesOfKey = new TreeMap<>();
    for (String line : lines) {
      JsonNode record = JSON.readTree(line);
      timesOfKey
          .computeIfAbsent(
              record.get("i").asText() + "|" + record.get("op").asText(), k -> new ArrayList<>())
          .add(record.get("t").asLong());
    }
    Map<String, Long> expected = new TreeMap<>();
    timesOfKey.forEach(
        (key, times) -> {
          Collections.sort(times);
          String[] parts = key.split("\\|");
          int first = 0;
          for (int i = 1; i <= times.size(); i++) {
            if (i == times.size() || times.get(i) - times.get(i - 1) > gapMillis) {
              long end = times.get(i - 1) + gapMillis;
              expected.put(
                  parts[0] + "|" + MILLIS.format(Instant.ofEpochMilli(end)) + "|" + parts[1],
                  (long) (i - first));
              first = i;
            }
          }
        });
    return expected;
  }

  /**
   * Reads {@code topic} from the start until the latest pane of every row equals {@code expected}
   * or {@code timeout} passes, and returns what it read.
   */
  static Map<String, Long> latest(
      String bootstrapServers, String topic, Map<String, Long> expected, Duration timeout) {
    return read(bootstrapServers, topic, timeout, rows -> rows.counts.equals(expected)).counts;
  }

  /**
   * Reads {@code topic} as {@link #latest} does, until also every row of {@code expected} has had
   * its final pane: every window fired and closed.
   */
  static Latest latestFinal(
      String bootstrapServers, String topic, Map<String, Long> expected, Duration timeout) {
    return read(
        bootstrapServers,
        topic,
        timeout,
        rows -> rows.counts.equals(expected) && rows.closed.equals(expected.keySet()));
  }

  /** The row's window as {@link #expected} names it: {@code index_name|event_time_log|op_type}. */
  static String windowOf(JsonNode row) {
    return row.get("index_name").asText()
        + "|"
        + row.get("event_time_log").asText()
        + "|"
        + row.get("op_type").asText();
  }

  /** The end of a window that {@link #expected} names, in epoch milliseconds. */
  static long windowEnd(String window) {
    return LocalDateTime.parse(window.split("\\|")[1], SECONDS)
        .toInstant(ZoneOffset.UTC)
        .toEpochMilli();
  }

  /** One output row, parsed. */
  static JsonNode readJson(String value) {
    try {
      return JSON.readTree(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The latest pane of each row in {@code rows}, as a file sink wrote them. */
  static Latest of(List<JsonNode> rows) {
    Latest latest = new Latest();
    rows.forEach(latest::add);
    return latest;
  }

  private static Latest read(
      String bootstrapServers, String topic, Duration timeout, Predicate<Latest> done) {
    Latest latest = new Latest();
    TopicValues.read(
        bootstrapServers,
        topic,
        timeout,
        value -> {
          try {
            latest.add(JSON.readTree(value));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        () -> done.test(latest));
    return latest;
  }

  /**
   * Per {@code index_name|event_time_log|op_type}: the count of the latest pane, and whether that
   * pane was final, kept as the README tells a consumer to: the final pane once it has come, until
   * then the highest pane. Panes repeated after a restore, with other indexes, are fine.
   */
  static final class Latest {
    final Map<String, Long> counts = new TreeMap<>();
    final Set<String> closed = new TreeSet<>();
    private final Map<String, Long> panes = new TreeMap<>();

    private void add(JsonNode row) {
      String key = windowOf(row);
      boolean isFinal = row.get("final").asBoolean();
      long pane = row.get("pane").asLong();
      boolean later =
          closed.contains(key)
              ? isFinal && pane >= panes.get(key)
              : isFinal || pane >= panes.getOrDefault(key, -1L);
      if (later) {
        panes.put(key, pane);
        counts.put(key, row.get("count_result").asLong());
        if (isFinal) {
          closed.add(key);
        }
      }
    }
  }
}
