package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.io.LineOrigins;
import dev.tidemark.transforms.io.ReplaySource;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.ArrivedLineParser;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.replay.ReplayTimeline.DeadLine;
import dev.tidemark.transforms.replay.ReplayTimeline.Kind;
import dev.tidemark.transforms.replay.ReplayTimeline.LateLine;
import dev.tidemark.transforms.replay.ReplayTimeline.Pane;
import dev.tidemark.transforms.replay.ReplayTimeline.Point;
import dev.tidemark.transforms.replay.ReplayTimeline.WindowClose;
import dev.tidemark.transforms.watermark.RecordingWatermark;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.Arrival;
import dev.tidemark.transforms.windowing.CountAndSumFn;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.PaneEngine;
import dev.tidemark.transforms.windowing.WindowKind;
import dev.tidemark.transforms.windowing.WindowState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Walks a recording the way its replay does, without a pipeline, and writes down what happens: the
 * {@link ReplayTimeline}. It reads the lines with the replay's own source ({@link ReplaySource}, so
 * every line meets the watermark it meets in the pipeline), parses them with the replay's own
 * parser, and judges each record with {@link Arrival}, the rule of {@link GatherWindowRecordsFn};
 * the panes are decided by the replay's own {@link PaneEngine}, as {@link ReplayPanesFn} decides
 * them. Replays fast enough to emit no EARLY pane (any replay of a file, unpaced) match it exactly.
 *
 * <p>Sliding and cumulating windows are judged window by window, as {@link ReplaySlicesFn} judges
 * them: a record is counted in the windows it is on time for, and is one late line, naming the
 * latest window it missed, when it missed any. The walk keeps a pane state per key and window,
 * where the replay keeps one per slice: a recording an explanation prints is small enough for that.
 * Sessions are walked by {@link ExplainSessions}, with the rules of the replay's session step.
 *
 * <p>A window closes when the watermark reaches its end: the watermark a line meets is the one left
 * by the lines before it, so a window that the line at position n finds closed was closed by line n
 * - 1. Windows still open at the end close when the recording ends.
 */
final class ExplainReplay {

  /** At most this many on-time lines are plotted; beyond it they are sampled evenly. */
  static final int MAX_POINTS = 20_000;

  /** At most this many late records and dead letters each are listed with their details. */
  static final int MAX_LISTED = 5_000;

  /**
   * At most this many records of each other kind are plotted: every late record (within the
   * lateness, or after it) and every dead letter of any recording but a broken one.
   */
  static final int MAX_PLOTTED_LATE = 100_000;

  private final Replay replay;
  private final EventTimeWindowing windowing;
  private final Instant now;
  private final ArrivedLineParser<Event> parser;
  private final ReplaySource source;
  private final RecordingWatermark partitioned;
  private final PartitionWatch partitions;

  /** The replay's pane rules, counting each window's lines. */
  private final PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine;

  /** For session windows, the keys' sessions; null for windows that do not merge. */
  private final @Nullable ExplainSessions sessions;

  /** Each key's windows, by their ends: cumulating windows share starts. */
  private final Map<String, Map<Instant, WindowState<Long, KV<Long, Long>>>> keyWindows =
      new TreeMap<>();

  private final TreeMap<Instant, OpenClose> openWindows = new TreeMap<>();
  private final List<WindowClose> closed = new ArrayList<>();
  private final List<LateLine> late = new ArrayList<>();
  private final List<DeadLine> deadLetters = new ArrayList<>();
  private final Map<Kind, PointSample> points = new EnumMap<>(Kind.class);
  private final OutOfPlace outOfPlace;
  private long inAnotherFormat;
  private @Nullable String anotherFormat;
  private long lines;
  private @Nullable Instant previousWatermark;

  private ExplainReplay(Replay replay, EventTimeWindowing windowing, Instant now) {
    this.replay = replay;
    this.windowing = windowing;
    this.now = now;
    this.parser = replay.parser();
    this.outOfPlace = new OutOfPlace(windowing, replay.maxOutOfOrderness());
    this.source = replay.sourceInBatches(ReplayPanes.LINES_PER_BATCH);
    this.partitioned = source.newWatermark();
    // A source that knows its partitions shows the empty ones too.
    this.partitions =
        new PartitionWatch(
            partitioned,
            replay.maxOutOfOrderness(),
            windowing.size(),
            replay.origins().map(LineOrigins::partitions).orElse(List.of()));
    CountAndSumFn<Long> counting = CountAndSumFn.summing(line -> 0L);
    this.engine = PaneEngine.replay(windowing, counting, Long::compare);
    this.sessions =
        windowing.kind().merges() ? new ExplainSessions(windowing, counting, engine, closed) : null;
    points.put(Kind.ON_TIME, PointSample.evenly(MAX_POINTS));
    points.put(Kind.LATE_WITHIN_LATENESS, PointSample.evenly(MAX_PLOTTED_LATE));
    points.put(Kind.LATE, PointSample.first(MAX_PLOTTED_LATE));
    points.put(Kind.DEAD, PointSample.first(MAX_PLOTTED_LATE));
  }

  static ReplayTimeline of(Replay replay, EventTimeWindowing windowing, Instant now) {
    return new ExplainReplay(replay, windowing, now).walk();
  }

  private ReplayTimeline walk() {
    try (UnboundedReader<List<ArrivedLine>> reader =
        source.createReader(PipelineOptionsFactory.create(), null)) {
      for (boolean more = reader.start(); more; more = reader.advance()) {
        for (ArrivedLine line : reader.getCurrent()) {
          visit(line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading the recording", e);
    }
    closeUpTo(Watermarks.MAX, ReplayTimeline.AT_THE_END, false);
    partitions.stopHolding();
    long deadCount = points.get(Kind.DEAD).offered();
    List<ReplayWarning> warnings = new ArrayList<>(outOfPlace.warnings());
    partitions.emptyPartitionsWarning().ifPresent(warnings::add);
    if (anotherFormat != null) {
      warnings.add(new ReplayWarning.InAnotherFormat(inAnotherFormat, deadCount, anotherFormat));
    }
    if (points.get(Kind.LATE).offered() > late.size() || deadCount > deadLetters.size()) {
      warnings.add(new ReplayWarning.NotAllListed(MAX_LISTED));
    }
    Map<Kind, Long> recordsByKind = new EnumMap<>(Kind.class);
    List<Point> plotted = new ArrayList<>();
    points.forEach(
        (kind, sample) -> {
          recordsByKind.put(kind, sample.offered());
          plotted.addAll(sample.kept());
        });
    plotted.sort(Comparator.comparingLong(Point::line));
    return new ReplayTimeline(
        lines,
        closed,
        sessions == null ? List.of() : sessions.merges(),
        sessions == null ? panes() : sortedPanes(sessions.panes()),
        late,
        deadLetters,
        plotted,
        Map.copyOf(recordsByKind),
        partitions.lines(),
        partitions.heldBack(),
        List.copyOf(warnings),
        replay.origins().orElse(null));
  }

  private void visit(ArrivedLine line) {
    lines++;
    Instant afterPreviousLine = partitioned.watermark();
    source.arrive(partitioned, line.position());
    Instant watermark = line.arrivalWatermark();
    if (previousWatermark == null || watermark.isAfter(previousWatermark)) {
      // What the line before moved the watermark to closed some windows; with arrival times, the
      // idle rule may have moved it further as the clock passed before this line arrived.
      closeUpTo(Watermarks.earliest(afterPreviousLine, watermark), line.position() - 1, false);
      closeUpTo(watermark, line.position() - 1, true);
      previousWatermark = watermark;
    }
    Event event;
    try {
      event = parser.parse(line, now);
    } catch (BadRecordException e) {
      String another = parser.anotherFormat(line);
      if (another != null) {
        inAnotherFormat++;
        anotherFormat = another;
      }
      outOfPlace.deadLetter(line, e.getMessage());
      if (deadLetters.size() < MAX_LISTED) {
        deadLetters.add(new DeadLine(line.position(), line.text(), e.getMessage()));
      }
      points
          .get(Kind.DEAD)
          .offer(
              new Point(
                  line.position(),
                  eventTimeOrNull(line),
                  watermark,
                  Kind.DEAD,
                  null,
                  source.partitionOf(line.position(), line.text())));
      return;
    }
    String partition = source.partitionOf(line.position(), line.text());
    partitions.observe(line.position(), partition, event.eventTime());
    outOfPlace.record(line.position(), partition, event.eventTime(), firstWindowOf(event));
    ExplainSessions.Judged judged =
        sessions != null
            ? sessions.add(line.position(), event.key().text(), event.eventTime(), watermark)
            : judgeInEachWindow(event, line.position(), watermark);
    @Nullable IntervalWindow latestMissed = judged.missed();
    // A record that missed some of its windows is in the late output once, with the latest.
    if (latestMissed != null && late.size() < MAX_LISTED) {
      late.add(
          new LateLine(
              line.position(),
              event.key().text(),
              event.eventTime(),
              latestMissed.start(),
              latestMissed.end(),
              watermark,
              line.text()));
    }
    Kind kind =
        latestMissed != null
            ? Kind.LATE
            : judged.lateWithinLateness() ? Kind.LATE_WITHIN_LATENESS : Kind.ON_TIME;
    points
        .get(kind)
        .offer(
            new Point(
                line.position(),
                event.eventTime(),
                watermark,
                kind,
                event.key().text(),
                partition));
  }

  /** The record's earliest window: the one it opens, for sessions. */
  private IntervalWindow firstWindowOf(Event event) {
    Instant time = event.eventTime();
    return sessions != null
        ? new IntervalWindow(time, time.plus(windowing.size()))
        : windowing
            .kind()
            .windowEndingAt(
                windowing.kind().firstWindowEndOfSlice(windowing.kind().sliceOf(time).start()));
  }

  /**
   * Judges the record at {@code line} in every window that holds it (one when windows tumble):
   * counted in those it is on time or late within the lateness for; late for the latest it missed.
   */
  private ExplainSessions.Judged judgeInEachWindow(Event event, long line, Instant watermark) {
    WindowKind kind = windowing.kind();
    @Nullable IntervalWindow latestMissed = null;
    boolean lateWithinLateness = false;
    for (IntervalWindow window : kind.windowsOfSlice(kind.sliceOf(event.eventTime()).start())) {
      switch (Arrival.of(windowing, window, watermark)) {
        case EXPIRED -> latestMissed = window;
        case LATE_WITHIN_LATENESS -> {
          lateWithinLateness = true;
          engine.addLateWithinLateness(keyWindow(event.key().text(), window), line);
        }
        case ON_TIME -> {
          engine.addOnTime(keyWindow(event.key().text(), window), line);
          openWindows.computeIfAbsent(window.end(), end -> new OpenClose(window)).onTime++;
        }
      }
    }
    return new ExplainSessions.Judged(latestMissed, lateWithinLateness);
  }

  /**
   * Every window whose end {@code watermark} has reached closes, after {@code afterLine}, by the
   * idle rule or not.
   */
  private void closeUpTo(Instant watermark, long afterLine, boolean byIdleRule) {
    if (sessions != null) {
      sessions.closeThrough(watermark, afterLine, byIdleRule);
      return;
    }
    while (!openWindows.isEmpty() && !openWindows.firstKey().isAfter(watermark)) {
      OpenClose open = openWindows.pollFirstEntry().getValue();
      closed.add(
          new WindowClose(
              open.window.start(),
              open.window.end(),
              afterLine,
              byIdleRule,
              watermark,
              open.onTime,
              null,
              -1));
    }
  }

  private WindowState<Long, KV<Long, Long>> keyWindow(String key, IntervalWindow window) {
    return keyWindows
        .computeIfAbsent(key, k -> new TreeMap<>())
        .computeIfAbsent(window.end(), end -> engine.open(window));
  }

  /** The panes the replay emits, by key and window: the engine's, once every window expired. */
  private List<Pane> panes() {
    List<Pane> panes = new ArrayList<>();
    keyWindows.forEach(
        (key, windows) ->
            windows.forEach(
                (start, state) -> {
                  for (PaneEngine.Pane<KV<Long, Long>> decided :
                      engine.onWatermark(state, Watermarks.MAX)) {
                    WindowPane pane = decided.pane();
                    panes.add(
                        new Pane(
                            key,
                            pane.windowStart(),
                            pane.windowEnd(),
                            pane.timing(),
                            pane.index(),
                            pane.isFinal(),
                            decided.value().getKey()));
                  }
                }));
    return sortedPanes(panes);
  }

  private static List<Pane> sortedPanes(List<Pane> panes) {
    List<Pane> sorted = new ArrayList<>(panes);
    sorted.sort(Comparator.comparing(Pane::windowEnd).thenComparing(Pane::key));
    return sorted;
  }

  private static @Nullable Instant eventTimeOrNull(ArrivedLine line) {
    return line.parsed() == null ? null : line.parsed().eventTime();
  }

  /** A window not closed yet, with its on-time records over all keys. */
  private static final class OpenClose {
    final IntervalWindow window;
    long onTime;

    OpenClose(IntervalWindow window) {
      this.window = window;
    }
  }
}
