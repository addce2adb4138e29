package dev.tidemark.pipelines.explain;

import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayTimeline.DeadLine;
import dev.tidemark.transforms.replay.ReplayTimeline.HeldBack;
import dev.tidemark.transforms.replay.ReplayTimeline.Kind;
import dev.tidemark.transforms.replay.ReplayTimeline.LateLine;
import dev.tidemark.transforms.replay.ReplayTimeline.PartitionLine;
import dev.tidemark.transforms.replay.ReplayTimeline.Point;
import dev.tidemark.transforms.replay.ReplayTimeline.Step;
import dev.tidemark.transforms.replay.ReplayTimeline.WindowClose;
import dev.tidemark.transforms.watermark.DurationText;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.joda.time.Instant;

/**
 * A {@link ReplayTimeline} as one self-contained HTML page: no scripts, fonts or styles from
 * anywhere else, the plot an inline SVG. Records are points, event time against the order they
 * arrived in; the watermark each met is a line; windows are bands of event time, each marked where
 * it closed; records late within the lateness are orange, late records red, dead letters black
 * crosses at the bottom; the warnings and the lists follow the plot.
 */
public final class TimelineReport {

  static final int WIDTH = 1100;
  static final int HEIGHT = 560;
  private static final int LEFT = 190;
  private static final int RIGHT = 20;
  private static final int TOP = 20;
  private static final int BOTTOM = 60;
  private static final int LISTED = 100;

  /** The colors of the marks; the screenshot test looks for them. */
  static final String ON_TIME = "#4a78b5";

  static final String LATE_WITHIN_LATENESS = "#f28e2b";
  static final String LATE = "#d62728";
  static final String WATERMARK = "#2ca02c";
  static final String CLOSED = "#1f3b73";
  static final String BAND = "#e4ecf7";

  /** The dashed watermark lines of a partitioned recording's partitions, in turn. */
  static final String[] PARTITIONS = {"#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"};

  private TimelineReport() {}

  /** The page for {@code timeline}, of the recording {@code title}. */
  public static String html(ReplayTimeline timeline, String title, EventTimeWindowing windowing) {
    StringBuilder page = new StringBuilder();
    page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>tidemark explain: ")
        .append(escape(title))
        .append("</title><style>")
        .append("body{font:14px sans-serif;margin:16px;color:#222}")
        .append("h1{font-size:18px}h2{font-size:15px;margin-top:20px}")
        .append(".warning{color:#8a4b00}code{font-size:12px}")
        .append("</style></head><body>\n<h1>tidemark explain: ")
        .append(escape(title))
        .append("</h1>\n<p>")
        .append(timeline.lines())
        .append(" lines, windows of ")
        .append(DurationText.asOption(windowing.size()))
        .append(", allowed lateness ")
        .append(DurationText.asOption(windowing.allowedLateness()))
        .append(": ")
        .append(timeline.windows().size())
        .append(" windows, ")
        .append(timeline.panes().size())
        .append(" panes, ")
        .append(timeline.late().size())
        .append(" late, ")
        .append(timeline.deadLetters().size())
        .append(" dead letters.</p>\n");
    warnings(timeline.warnings(), page);
    page.append(new Plot(timeline).svg());
    heldBack(timeline, page);
    late(timeline.late(), page);
    deadLetters(timeline.deadLetters(), page);
    return page.append("</body></html>\n").toString();
  }

  private static void warnings(List<String> warnings, StringBuilder page) {
    page.append("<h2>Warnings (").append(warnings.size()).append(")</h2>\n<ul>");
    for (String warning : warnings) {
      page.append("<li class=\"warning\">").append(escape(warning)).append("</li>");
    }
    page.append("</ul>\n");
  }

  private static void heldBack(ReplayTimeline timeline, StringBuilder page) {
    if (!timeline.isPartitioned()) {
      return;
    }
    page.append("<h2>Partitions that held the watermark back by a window or more (")
        .append(timeline.heldBack().size())
        .append(")</h2>\n<ul>");
    for (HeldBack held : timeline.heldBack()) {
      page.append("<li>partition ")
          .append(escape(held.partition()))
          .append(", lines ")
          .append(held.fromLine())
          .append(" to ")
          .append(held.toLine())
          .append(", up to ")
          .append(DurationText.asOption(held.behindNewest()))
          .append(" behind the newest partition</li>");
    }
    page.append("</ul>\n");
  }

  private static void late(List<LateLine> late, StringBuilder page) {
    page.append("<h2>Late records (").append(late.size()).append(")</h2>\n<ul>");
    for (LateLine line : late.subList(0, Math.min(LISTED, late.size()))) {
      page.append("<li>line ")
          .append(line.line())
          .append(": <code>")
          .append(escape(line.raw()))
          .append("</code> in [")
          .append(line.windowStart())
          .append(", ")
          .append(line.windowEnd())
          .append(") met watermark ")
          .append(line.watermark())
          .append(", ")
          .append(DurationText.asOption(line.pastWindowEnd()))
          .append(" past the window's end</li>");
    }
    page.append("</ul>\n");
  }

  private static void deadLetters(List<DeadLine> deadLetters, StringBuilder page) {
    page.append("<h2>Dead letters (").append(deadLetters.size()).append(")</h2>\n<ul>");
    for (DeadLine line : deadLetters.subList(0, Math.min(LISTED, deadLetters.size()))) {
      page.append("<li>line ")
          .append(line.line())
          .append(": <code>")
          .append(escape(line.raw()))
          .append("</code>: ")
          .append(escape(line.reason()))
          .append("</li>");
    }
    page.append("</ul>\n");
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  /** The SVG: scales from line numbers and event times to pixels, and the marks. */
  private static final class Plot {
    private final ReplayTimeline timeline;
    private final long firstTime;
    private final long lastTime;
    private final StringBuilder svg = new StringBuilder();

    Plot(ReplayTimeline timeline) {
      this.timeline = timeline;
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (Point point : timeline.points()) {
        if (point.eventTime() != null && isDrawable(point.eventTime())) {
          first = Math.min(first, point.eventTime().getMillis());
          last = Math.max(last, point.eventTime().getMillis());
        }
      }
      this.firstTime = first == Long.MAX_VALUE ? 0 : first;
      this.lastTime = last == Long.MIN_VALUE ? 1 : Math.max(last, first + 1);
    }

    String svg() {
      svg.append(
          String.format(
              Locale.ROOT,
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                  + " viewBox=\"0 0 %d %d\" role=\"img\">\n"
                  + "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
              WIDTH,
              HEIGHT,
              WIDTH,
              HEIGHT,
              WIDTH,
              HEIGHT));
      bands();
      points(true);
      partitionWatermarks();
      watermark();
      points(false);
      closedMarks();
      axes();
      return svg.append("</svg>\n").toString();
    }

    /** Each other window a shaded band over its event times. */
    private void bands() {
      int index = 0;
      for (WindowClose window : timeline.windows()) {
        double top = y(window.end().getMillis());
        double bottom = y(window.start().getMillis());
        if (bottom < TOP || top > HEIGHT - BOTTOM) {
          continue;
        }
        if (index++ % 2 == 0) {
          rect(LEFT, top, WIDTH - LEFT - RIGHT, Math.max(1, bottom - top), BAND);
        }
      }
    }

    /** A mark on each window's end where it closed: after which line. */
    private void closedMarks() {
      for (WindowClose window : timeline.windows()) {
        double top = y(window.end().getMillis());
        long closedAfter =
            window.closedAfterLine() == ReplayTimeline.AT_THE_END
                ? timeline.lines()
                : window.closedAfterLine();
        double x = x(closedAfter);
        svg.append(
            String.format(
                Locale.ROOT,
                "<path d=\"M%.1f %.1f l-7 -10 h14 z\" fill=\"%s\"><title>[%s, %s) closed"
                    + " after line %d</title></path>\n",
                x,
                top,
                CLOSED,
                window.start(),
                window.end(),
                closedAfter));
      }
    }

    /** The watermark each plotted line met, as a step line. */
    private void watermark() {
      stepLine(
          timeline.points().stream()
              .sorted(Comparator.comparingLong(Point::line))
              .map(point -> new Step(point.line(), point.watermark()))
              .toList(),
          WATERMARK,
          "stroke-width=\"3\"",
          "watermark met");
    }

    /** For a partitioned recording, each partition's own watermark, dashed. */
    private void partitionWatermarks() {
      if (!timeline.isPartitioned()) {
        return;
      }
      int index = 0;
      for (PartitionLine partition : timeline.partitions()) {
        stepLine(
            partition.watermark(),
            PARTITIONS[index++ % PARTITIONS.length],
            "stroke-width=\"1.5\" stroke-dasharray=\"6 3\"",
            "partition " + partition.name() + "'s watermark");
      }
    }

    /** {@code steps}, in line order, as a step line; times outside Beam's range are left out. */
    private void stepLine(List<Step> steps, String color, String stroke, String title) {
      StringBuilder path = new StringBuilder();
      double previousY = Double.NaN;
      for (Step step : steps) {
        if (!isDrawable(step.watermark())) {
          continue;
        }
        double x = x(step.line());
        double y = y(step.watermark().getMillis());
        if (path.length() == 0) {
          path.append(String.format(Locale.ROOT, "M%.1f %.1f", x, y));
        } else {
          path.append(String.format(Locale.ROOT, " H%.1f", x));
          if (y != previousY) {
            path.append(String.format(Locale.ROOT, " V%.1f", y));
          }
        }
        previousY = y;
      }
      if (path.length() > 0) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<path d=\"%s\" fill=\"none\" stroke=\"%s\" %s><title>%s</title></path>\n",
                path,
                color,
                stroke,
                escape(title)));
      }
    }

    /** The on-time points ({@code onTime}), or all the others, drawn over the watermark. */
    private void points(boolean onTime) {
      for (Point point : timeline.points()) {
        if ((point.kind() == Kind.ON_TIME) != onTime) {
          continue;
        }
        double x = x(point.line());
        if (point.kind() == Kind.DEAD || point.eventTime() == null) {
          double y = HEIGHT - BOTTOM + 12;
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<path d=\"M%.1f %.1f l8 8 m0 -8 l-8 8\" stroke=\"#000000\""
                      + " stroke-width=\"2\"/>\n",
                  x - 4,
                  y - 4));
          continue;
        }
        if (!isDrawable(point.eventTime())) {
          continue;
        }
        double y = y(point.eventTime().getMillis());
        String color;
        double radius;
        switch (point.kind()) {
          case LATE -> {
            color = LATE;
            radius = 6;
          }
          case LATE_WITHIN_LATENESS -> {
            color = LATE_WITHIN_LATENESS;
            radius = 5;
          }
          default -> {
            color = ON_TIME;
            radius = 2;
          }
        }
        svg.append(
            String.format(
                Locale.ROOT,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.0f\" fill=\"%s\"/>\n",
                x,
                y,
                radius,
                color));
      }
    }

    private void axes() {
      int bottom = HEIGHT - BOTTOM;
      svg.append(
          String.format(
              Locale.ROOT,
              "<path d=\"M%d %d V%d H%d\" stroke=\"#444444\" fill=\"none\"/>\n"
                  + "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">arrival order (line) &#8594;</text>\n"
                  + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">line %d</text>\n"
                  + "<text x=\"%d\" y=\"%d\">line 1</text>\n"
                  + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n"
                  + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n"
                  + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">event time</text>\n",
              LEFT,
              TOP,
              bottom,
              WIDTH - RIGHT,
              (LEFT + WIDTH - RIGHT) / 2,
              HEIGHT - 30,
              WIDTH - RIGHT,
              HEIGHT - 30,
              timeline.lines(),
              LEFT,
              HEIGHT - 30,
              LEFT - 6,
              TOP + 10,
              new Instant(lastTime),
              LEFT - 6,
              bottom,
              new Instant(firstTime),
              LEFT - 6,
              (TOP + bottom) / 2));
      legend();
    }

    private void legend() {
      String[][] entries = {
        {ON_TIME, "on time"},
        {LATE_WITHIN_LATENESS, "late within the lateness"},
        {LATE, "late (window expired)"},
        {WATERMARK, "watermark met"},
        {CLOSED, "window closed here"}
      };
      int x = LEFT + 10;
      for (String[] entry : entries) {
        rect(x, HEIGHT - 16, 12, 12, entry[0]);
        svg.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n",
                x + 16,
                HEIGHT - 6,
                entry[1]));
        x += 30 + entry[1].length() * 7;
      }
      partitionLegend();
    }

    /** The partitions' dashed lines, named in a box at the top left of the plot. */
    private void partitionLegend() {
      if (!timeline.isPartitioned()) {
        return;
      }
      List<PartitionLine> partitions = timeline.partitions();
      int shown = Math.min(partitions.size(), PARTITIONS.length);
      rect(LEFT + 6, TOP + 4, 230, 8 + 16 * shown, "#ffffff");
      for (int i = 0; i < shown; i++) {
        int y = TOP + 16 + 16 * i;
        svg.append(
            String.format(
                Locale.ROOT,
                "<path d=\"M%d %d h24\" stroke=\"%s\" stroke-width=\"2\""
                    + " stroke-dasharray=\"6 3\"/>\n"
                    + "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n",
                LEFT + 12,
                y - 4,
                PARTITIONS[i],
                LEFT + 42,
                y,
                escape(
                    "partition "
                        + partitions.get(i).name()
                        + "'s watermark"
                        + (i == shown - 1 && partitions.size() > shown
                            ? " (+" + (partitions.size() - shown) + " more)"
                            : ""))));
      }
    }

    private void rect(double x, double y, double width, double height, String color) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
              x,
              y,
              width,
              height,
              color));
    }

    private double x(long line) {
      long lines = Math.max(2, timeline.lines());
      return LEFT + (double) (line - 1) / (lines - 1) * (WIDTH - LEFT - RIGHT);
    }

    /** Pixels from the top for an event time; times outside the records' are at the plot's edge. */
    private double y(long millis) {
      double share = (double) (millis - firstTime) / (lastTime - firstTime);
      double y = HEIGHT - BOTTOM - share * (HEIGHT - BOTTOM - TOP);
      return Math.max(TOP, Math.min(HEIGHT - BOTTOM, y));
    }

    /** Times near the ends of Beam's range (a watermark before any record) are not drawn. */
    private static boolean isDrawable(Instant time) {
      return time.isAfter(Watermarks.MIN) && time.isBefore(Watermarks.MAX);
    }
  }
}
