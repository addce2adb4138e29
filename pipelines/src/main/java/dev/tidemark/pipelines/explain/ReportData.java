package dev.tidemark.pipelines.explain;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayTimeline.DeadLine;
import dev.tidemark.transforms.replay.ReplayTimeline.Kind;
import dev.tidemark.transforms.replay.ReplayTimeline.Pane;
import dev.tidemark.transforms.replay.ReplayTimeline.PartitionLine;
import dev.tidemark.transforms.replay.ReplayTimeline.Point;
import dev.tidemark.transforms.replay.ReplayTimeline.Step;
import dev.tidemark.transforms.replay.ReplayTimeline.WindowClose;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * A {@link ReplayTimeline} as the JSON that the report's script draws, small enough that two
 * million lines fit in a page of a few megabytes: column arrays; times in milliseconds from the
 * first record's event time; lines and times as differences from the value before them in their
 * column (null where there is no time to draw: a watermark before any record, a dead letter's event
 * time); keys and partitions as indexes into tables; the points in one group per kind, so no column
 * says the kind. Panes beyond a cap ({@link #MAX_PANES} in a report) are left out, and the data
 * says how many.
 */
final class ReportData {

  /** At most this many panes are in the page's table data. */
  static final int MAX_PANES = 200_000;

  /** A dead letter's text is cut to this many characters for its hover title. */
  private static final int SHOWN_CHARS = 200;

  private static final JsonFactory JSON = new JsonFactory();

  private final ReplayTimeline timeline;
  private final EventTimeWindowing windowing;
  private final int maxPanes;
  private final long base;
  private final Map<String, Integer> keys = new LinkedHashMap<>();
  private final Map<String, Integer> partitions = new LinkedHashMap<>();

  private ReportData(ReplayTimeline timeline, EventTimeWindowing windowing, int maxPanes) {
    this.timeline = timeline;
    this.windowing = windowing;
    this.maxPanes = maxPanes;
    long first = Long.MAX_VALUE;
    for (Point point : timeline.points()) {
      if (point.eventTime() != null && isDrawable(point.eventTime())) {
        first = Math.min(first, point.eventTime().getMillis());
      }
    }
    this.base = first == Long.MAX_VALUE ? 0 : first;
    for (PartitionLine partition : timeline.partitions()) {
      partitions.putIfAbsent(partition.name(), partitions.size());
    }
  }

  /** The JSON of {@code timeline}, windowed by {@code windowing}, with at most {@code maxPanes}. */
  static String of(ReplayTimeline timeline, EventTimeWindowing windowing, int maxPanes) {
    return new ReportData(timeline, windowing, maxPanes).json();
  }

  private String json() {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartObject();
      json.writeNumberField("lines", timeline.lines());
      json.writeNumberField("base", base);
      json.writeNumberField("windowSize", windowing.size().getMillis());
      // A point's window is named only when it has one: its tumbling window.
      json.writeBooleanField("tumbling", windowing.isTumbling());
      json.writeBooleanField("sessions", windowing.kind().merges());
      json.writeNumberField("lateness", windowing.allowedLateness().getMillis());
      json.writeBooleanField("partitioned", timeline.isPartitioned());
      json.writeBooleanField("snapshot", timeline.origins() != null);
      points(json);
      deadLetters(json);
      windows(json);
      watermarks(json);
      panes(json);
      counts(json);
      table(json, "keys", keys);
      table(json, "partitions", partitions);
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // A record's text may hold "</script>", which must not end the page's script early.
    return text.toString().replace("</", "<\\/");
  }

  /**
   * The plotted points, one group of columns per kind (its index is the kind's ordinal), each in
   * arrival order.
   */
  private void points(JsonGenerator json) throws IOException {
    Map<Kind, List<Point>> byKind = new EnumMap<>(Kind.class);
    for (Kind kind : Kind.values()) {
      byKind.put(kind, new ArrayList<>());
    }
    for (Point point : timeline.points()) {
      byKind.get(point.kind()).add(point);
    }
    json.writeArrayFieldStart("points");
    for (List<Point> points : byKind.values()) {
      json.writeStartObject();
      lineDeltas(json, "line", points, Point::line);
      timeDeltas(json, "t", points, Point::eventTime);
      timeDeltas(json, "w", points, Point::watermark);
      numbers(json, "key", points, point -> point.key() == null ? -1 : index(keys, point.key()));
      if (timeline.isPartitioned()) {
        numbers(json, "part", points, point -> index(partitions, point.partition()));
      }
      if (timeline.origins() != null) {
        json.writeArrayFieldStart("name");
        for (Point point : points) {
          json.writeString(timeline.nameOf(point.line()));
        }
        json.writeEndArray();
      }
      json.writeEndObject();
    }
    json.writeEndArray();
  }

  /** Each dead letter listed: its line, then its text and reason for the hover title. */
  private void deadLetters(JsonGenerator json) throws IOException {
    json.writeObjectFieldStart("dead");
    for (DeadLine dead : timeline.deadLetters()) {
      json.writeArrayFieldStart(String.valueOf(dead.line()));
      json.writeString(shown(dead.raw()));
      json.writeString(shown(dead.reason()));
      json.writeEndArray();
    }
    json.writeEndObject();
  }

  /** Each window: its start, the line after which it closed (null: at the end), and so on. */
  private void windows(JsonGenerator json) throws IOException {
    List<WindowClose> windows = timeline.windows();
    json.writeObjectFieldStart("windows");
    timeDeltas(json, "start", windows, WindowClose::start);
    timeDeltas(json, "end", windows, WindowClose::end);
    numbers(
        json,
        "key",
        windows,
        window -> window.sessionKey() == null ? -1 : index(keys, window.sessionKey()));
    nullableDeltas(
        json, "first", windows, window -> window.firstLine() < 0 ? null : window.firstLine());
    nullableDeltas(
        json,
        "closed",
        windows,
        window ->
            window.closedAfterLine() == ReplayTimeline.AT_THE_END
                ? null
                : window.closedAfterLine());
    numbers(json, "idle", windows, window -> window.byIdleRule() ? 1 : 0);
    timeDeltas(json, "w", windows, WindowClose::watermarkAfter);
    numbers(json, "onTime", windows, WindowClose::onTime);
    json.writeEndObject();
  }

  /** Each partition's own watermark, as steps. */
  private void watermarks(JsonGenerator json) throws IOException {
    json.writeArrayFieldStart("partitionWatermarks");
    if (timeline.isPartitioned()) {
      for (PartitionLine partition : timeline.partitions()) {
        json.writeStartObject();
        json.writeNumberField("part", index(partitions, partition.name()));
        lineDeltas(json, "line", partition.watermark(), Step::line);
        timeDeltas(json, "w", partition.watermark(), Step::watermark);
        json.writeEndObject();
      }
    }
    json.writeEndArray();
  }

  /**
   * The first {@code maxPanes} panes in the order they fired. A pane's index is not written: it is
   * the number of panes of its window and key before it in this order, which the script counts.
   */
  private void panes(JsonGenerator json) throws IOException {
    // A window by its end (cumulating windows share starts); a session by its key and end.
    Map<String, Integer> windowIndex = new HashMap<>();
    for (WindowClose window : timeline.windows()) {
      windowIndex.put(windowName(window.sessionKey(), window.end()), windowIndex.size());
    }
    boolean sessions = windowing.kind().merges();
    List<Pane> panes = timeline.panes();
    List<Pane> shown = panes.subList(0, Math.min(maxPanes, panes.size()));
    json.writeNumberField("panesLeftOut", panes.size() - shown.size());
    json.writeObjectFieldStart("panes");
    lineDeltas(
        json,
        "window",
        shown,
        pane ->
            windowIndex.getOrDefault(
                windowName(sessions ? pane.key() : null, pane.windowEnd()), -1));
    numbers(json, "key", shown, pane -> index(keys, pane.key()));
    // Beam's PaneInfo.Timing by ordinal (EARLY, ON_TIME, LATE, UNKNOWN), times 2, plus 1 if final.
    numbers(json, "timing", shown, pane -> pane.timing().ordinal() * 2L + (pane.isFinal() ? 1 : 0));
    numbers(json, "count", shown, Pane::count);
    json.writeEndObject();
  }

  private static String windowName(@Nullable String sessionKey, Instant end) {
    return sessionKey == null ? end.toString() : sessionKey + "@" + end;
  }

  /** How many records of each kind there were, and how many of them are plotted. */
  private void counts(JsonGenerator json) throws IOException {
    Map<Kind, Long> plotted = new HashMap<>();
    for (Point point : timeline.points()) {
      plotted.merge(point.kind(), 1L, Long::sum);
    }
    json.writeObjectFieldStart("counts");
    for (Kind kind : Kind.values()) {
      json.writeArrayFieldStart(kind.name());
      json.writeNumber(plotted.getOrDefault(kind, 0L));
      json.writeNumber(timeline.count(kind));
      json.writeEndArray();
    }
    json.writeEndObject();
  }

  private static <T> void numbers(
      JsonGenerator json, String field, List<T> values, ToLongFunction<T> number)
      throws IOException {
    json.writeArrayFieldStart(field);
    for (T value : values) {
      json.writeNumber(number.applyAsLong(value));
    }
    json.writeEndArray();
  }

  /** Each value as its difference from the one before it, the first from 0. */
  private static <T> void lineDeltas(
      JsonGenerator json, String field, List<T> values, ToLongFunction<T> line) throws IOException {
    nullableDeltas(json, field, values, value -> line.applyAsLong(value));
  }

  /** Each time as its difference from the drawable one before it; one it cannot draw is null. */
  private <T> void timeDeltas(
      JsonGenerator json, String field, List<T> values, Function<T, @Nullable Instant> time)
      throws IOException {
    nullableDeltas(
        json,
        field,
        values,
        value -> {
          Instant instant = time.apply(value);
          return instant == null || !isDrawable(instant) ? null : instant.getMillis() - base;
        });
  }

  /** Each number as its difference from the one before it that was not null; null stays null. */
  private static <T> void nullableDeltas(
      JsonGenerator json, String field, List<T> values, Function<T, @Nullable Long> number)
      throws IOException {
    json.writeArrayFieldStart(field);
    long previous = 0;
    for (T value : values) {
      Long current = number.apply(value);
      if (current == null) {
        json.writeNull();
      } else {
        json.writeNumber(current - previous);
        previous = current;
      }
    }
    json.writeEndArray();
  }

  private static void table(JsonGenerator json, String field, Map<String, Integer> names)
      throws IOException {
    json.writeArrayFieldStart(field);
    for (String name : names.keySet()) {
      json.writeString(name);
    }
    json.writeEndArray();
  }

  private static int index(Map<String, Integer> names, String name) {
    return names.computeIfAbsent(name, added -> names.size());
  }

  private static String shown(String text) {
    return text.length() <= SHOWN_CHARS ? text : text.substring(0, SHOWN_CHARS) + "...";
  }

  /** Times near the ends of Beam's range (a watermark before any record) are not drawn. */
  static boolean isDrawable(Instant time) {
    return time.isAfter(Watermarks.MIN) && time.isBefore(Watermarks.MAX);
  }
}
