package dev.tidemark.pipelines.explain;

import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayTimeline.DeadLine;
import dev.tidemark.transforms.replay.ReplayTimeline.HeldBack;
import dev.tidemark.transforms.replay.ReplayTimeline.Kind;
import dev.tidemark.transforms.replay.ReplayTimeline.LateLine;
import dev.tidemark.transforms.replay.ReplayTimeline.Pane;
import dev.tidemark.transforms.replay.ReplayTimeline.PartitionLine;
import dev.tidemark.transforms.replay.ReplayTimeline.SessionMerge;
import dev.tidemark.transforms.replay.ReplayTimeline.Step;
import dev.tidemark.transforms.replay.ReplayTimeline.WindowClose;
import dev.tidemark.transforms.watermark.DurationText;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.WindowKind;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A {@link ReplayTimeline} as text a person reads top to bottom: each window in the order it
 * closes, with what closed it and each key's panes; for a partitioned recording, each partition and
 * when one held the watermark back; the late records, with the watermark they met; the dead
 * letters, with the reason; the warnings; and a summary that adds up to the lines read.
 */
public final class TimelineText {

  /** The windows, as a person reads them: "windows of 10s", "windows of 1m every 1s". */
  static String windowsOf(EventTimeWindowing windowing) {
    WindowKind kind = windowing.kind();
    String size = DurationText.asOption(kind.size());
    String slide = DurationText.asOption(kind.slide());
    return switch (kind.shape()) {
      case SLIDING -> "windows of " + size + " every " + slide;
      case CUMULATING -> "windows growing by " + slide + " to " + size;
      case SESSIONS -> "sessions with a gap of " + size;
      case TUMBLING -> "windows of " + size;
    };
  }

  /** Beyond this many windows, the middle ones are left out of the text (never of the report). */
  static final int MAX_WINDOWS_SHOWN = 200;

  /**
   * A partition that holds the watermark back by more than this has no record yet: its watermark is
   * the minimum, billions of years behind.
   */
  private static final Duration NO_RECORD_YET = Duration.standardDays(365L * 10_000);

  private TimelineText() {}

  /** Why a live run can find fewer records late than a replay: said under the late records. */
  static final String BURST_EFFECT =
      "each met the watermark left by every record before it; a live source moves its"
          + " watermark at its runner's pace, so records that arrive together meet the same,"
          + " older one, and a live run can find fewer of these late: the burst effect";

  /**
   * Writes {@code timeline}, of the recording {@code title}, to {@code out}, with the lines of
   * {@code about} (what a snapshot is and cannot know) under the title, and {@code warnings}.
   */
  public static void write(
      ReplayTimeline timeline,
      List<String> warnings,
      String title,
      List<String> about,
      EventTimeWindowing windowing,
      PrintStream out) {
    out.println(
        "explain "
            + title
            + " ("
            + timeline.lines()
            + (timeline.origins() == null ? " lines" : " records")
            + ", "
            + windowsOf(windowing)
            + ", allowed lateness "
            + DurationText.asOption(windowing.allowedLateness())
            + ")");
    about.forEach(out::println);
    out.println();
    windows(timeline, out);
    merges(timeline, out);
    partitions(timeline, out);
    late(timeline, out);
    deadLetters(timeline, out);
    warnings(warnings, out);
    summary(timeline, windowing, out);
  }

  private static void windows(ReplayTimeline timeline, PrintStream out) {
    List<WindowClose> windows = timeline.windows();
    boolean sessions = !windows.isEmpty() && windows.get(0).sessionKey() != null;
    // A window's panes, by its end; a session's, by its key and end.
    Map<String, List<Pane>> panesByWindow = new LinkedHashMap<>();
    for (Pane pane : timeline.panes()) {
      panesByWindow
          .computeIfAbsent(
              windowName(sessions ? pane.key() : null, pane.windowEnd()), name -> new ArrayList<>())
          .add(pane);
    }
    out.println(
        (sessions ? "sessions" : "windows")
            + ", in the order they close ("
            + windows.size()
            + "):");
    for (int i = 0; i < windows.size(); i++) {
      if (windows.size() > MAX_WINDOWS_SHOWN
          && i == MAX_WINDOWS_SHOWN / 2
          && windows.size() - i > MAX_WINDOWS_SHOWN / 2) {
        int skipped = windows.size() - MAX_WINDOWS_SHOWN;
        out.println("  ... " + skipped + " more windows (--report draws them all) ...");
        i += skipped - 1;
        continue;
      }
      WindowClose window = windows.get(i);
      out.println(
          "  "
              + (sessions ? window.sessionKey() + " " : "")
              + "["
              + window.start()
              + ", "
              + window.end()
              + ")  "
              + window.onTime()
              + " on time, closed "
              + (window.closedAfterLine() == ReplayTimeline.AT_THE_END
                  ? "at the end of the "
                      + (timeline.origins() == null ? "recording" : "snapshot")
                      + " (a live source closes it by the idle rule, --idleTimeout after its last"
                      + " record)"
                  : window.byIdleRule()
                      ? "by the idle rule, after "
                          + timeline.nameOf(window.closedAfterLine())
                          + ": no partition that held the watermark had a record for"
                          + " --idleTimeout, and the watermark moved to "
                          + window.watermarkAfter()
                      : "after "
                          + timeline.nameOf(window.closedAfterLine())
                          + ", which moved the watermark to "
                          + window.watermarkAfter()));
      StringBuilder panes = new StringBuilder("      ");
      for (Pane pane :
          panesByWindow.getOrDefault(windowName(window.sessionKey(), window.end()), List.of())) {
        panes
            .append(pane.key())
            .append(": ")
            .append(pane.timing())
            .append(pane.isFinal() ? " final " : " ")
            .append(pane.count())
            .append("   ");
      }
      out.println(panes.toString().stripTrailing());
    }
    out.println();
  }

  private static String windowName(@Nullable String sessionKey, Instant end) {
    return sessionKey == null ? end.toString() : sessionKey + "@" + end;
  }

  /**
   * For sessions: each record that merged sessions of its key, with the sessions it merged and the
   * one they became.
   */
  private static void merges(ReplayTimeline timeline, PrintStream out) {
    if (timeline.merges().isEmpty()) {
      return;
    }
    out.println("sessions merged by a record (" + timeline.merges().size() + "):");
    for (SessionMerge merge : timeline.merges()) {
      StringBuilder merged = new StringBuilder();
      for (IntervalWindow session : merge.merged()) {
        merged.append(merged.length() == 0 ? "" : " and ").append(bounds(session));
      }
      out.println(
          "  "
              + timeline.nameOf(merge.line())
              + "  "
              + merge.key()
              + ": "
              + merged
              + " into "
              + bounds(merge.into()));
    }
    out.println();
  }

  private static String bounds(IntervalWindow window) {
    return "[" + window.start() + ", " + window.end() + ")";
  }

  /** For a partitioned recording: each partition, and when one held the watermark back. */
  private static void partitions(ReplayTimeline timeline, PrintStream out) {
    if (!timeline.isPartitioned()) {
      return;
    }
    out.println(
        "partitions ("
            + timeline.partitions().size()
            + "); the watermark is the lowest of those "
            + (timeline.origins() == null
                ? "not quiet for --partitionIdleGap:"
                : "not idle (no record for --idleTimeout of Kafka time):"));
    for (PartitionLine partition : timeline.partitions()) {
      List<Step> steps = partition.watermark();
      out.println(
          "  partition "
              + partition.name()
              + ": "
              + partition.records()
              + " records"
              + (steps.isEmpty()
                  ? ""
                  : ", watermark at last " + steps.get(steps.size() - 1).watermark()));
    }
    out.println(
        "held the watermark back by a window or more (" + timeline.heldBack().size() + "):");
    for (HeldBack held : timeline.heldBack()) {
      out.println(
          "  partition "
              + held.partition()
              + " from "
              + timeline.nameOf(held.fromLine())
              + " to "
              + timeline.nameOf(held.toLine())
              + (held.behindNewest().isLongerThan(NO_RECORD_YET)
                  ? ", at the minimum: it had no record yet"
                  : ", up to "
                      + DurationText.asOption(held.behindNewest())
                      + " behind the partition with the newest records"));
    }
    out.println();
  }

  private static void late(ReplayTimeline timeline, PrintStream out) {
    List<LateLine> late = timeline.late();
    out.println(
        "late records, whose window had expired when they arrived ("
            + listed(timeline.count(Kind.LATE), late.size())
            + "):");
    for (LateLine line : late) {
      out.println(
          "  "
              + timeline.nameOf(line.line())
              + "  "
              + line.key()
              + " at "
              + line.eventTime()
              + " in ["
              + line.windowStart()
              + ", "
              + line.windowEnd()
              + "): met watermark "
              + line.watermark()
              + ", late by "
              + line.lateBy().getMillis()
              + "ms ("
              + DurationText.asOption(line.pastWindowEnd())
              + " past the window's end)");
    }
    if (!late.isEmpty()) {
      out.println("  (" + BURST_EFFECT + ")");
    }
    out.println();
  }

  private static void deadLetters(ReplayTimeline timeline, PrintStream out) {
    List<DeadLine> deadLetters = timeline.deadLetters();
    out.println("dead letters (" + listed(timeline.count(Kind.DEAD), deadLetters.size()) + "):");
    for (DeadLine line : deadLetters) {
      out.println(
          "  " + timeline.nameOf(line.line()) + "  " + line.raw() + "  -> " + line.reason());
    }
    out.println();
  }

  /** {@code count}, and how many of them are listed when that is fewer. */
  private static String listed(long count, int listed) {
    return count == listed ? String.valueOf(count) : count + "; the first " + listed + " listed";
  }

  private static void warnings(List<String> warnings, PrintStream out) {
    out.println("warnings (" + warnings.size() + "):");
    for (String warning : warnings) {
      out.println("  ! " + warning);
    }
    out.println();
  }

  private static void summary(
      ReplayTimeline timeline, EventTimeWindowing windowing, PrintStream out) {
    long counted = timeline.panes().stream().filter(Pane::isFinal).mapToLong(Pane::count).sum();
    String lines = timeline.lines() + (timeline.origins() == null ? " lines = " : " records = ");
    String rest =
        timeline.count(Kind.LATE)
            + " late + "
            + timeline.count(Kind.DEAD)
            + " dead letters; "
            + timeline.panes().size()
            + " panes in "
            + timeline.windows().size()
            + " windows";
    if (windowing.isTumbling() || windowing.kind().merges()) {
      out.println(lines + counted + " counted in final panes + " + rest);
      return;
    }
    // A record is in several sliding or cumulating windows: the final panes count (record, window)
    // pairs, and a record late for its older windows is late once, and counted in its newer ones.
    out.println(
        lines
            + (timeline.count(Kind.ON_TIME) + timeline.count(Kind.LATE_WITHIN_LATENESS))
            + " counted in all their windows + "
            + rest
            + "; the final panes count "
            + counted
            + " (record, window) pairs");
  }
}
