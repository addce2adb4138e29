package dev.tidemark.pipelines.explain;

import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayTimeline.DeadLine;
import dev.tidemark.transforms.replay.ReplayTimeline.HeldBack;
import dev.tidemark.transforms.replay.ReplayTimeline.Kind;
import dev.tidemark.transforms.replay.ReplayTimeline.LateLine;
import dev.tidemark.transforms.watermark.DurationText;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A {@link ReplayTimeline} as one self-contained HTML page: no scripts, fonts or styles from
 * anywhere else. The timeline is in the page as compact JSON ({@link ReportData}), and an inline
 * script draws it on a canvas: records are points, event time against the order they arrived in,
 * on-time ones in their partition's color; the watermark each met is a line, each partition's own
 * dashed over it; windows are bands of event time, each marked where it closed; records late within
 * the lateness are orange, late records red, dead letters black crosses at the bottom. Records
 * outside the event-time range of the on-time ones are drawn in strips above and below, so outliers
 * do not squash the plot. Every mark has a hover title; the wheel zooms and a drag pans. Beyond
 * {@code ExplainReplay}'s limits the on-time points are a labelled even sample; every late record,
 * dead letter and window close is drawn. The warnings, the panes of the windows in view and the
 * lists follow the plot.
 */
public final class TimelineReport {

  static final int WIDTH = 1100;
  static final int HEIGHT = 560;
  private static final int LISTED = 100;

  /** The colors of the marks, as the script draws them; the screenshot test looks for them. */
  static final String ON_TIME = "#4a78b5";

  static final String LATE_WITHIN_LATENESS = "#f28e2b";
  static final String LATE = "#d62728";
  static final String WATERMARK = "#2ca02c";
  static final String CLOSED = "#1f3b73";
  static final String BAND = "#e4ecf7";

  private static final String SCRIPT = script();

  private TimelineReport() {}

  /** The page for {@code timeline}, of the recording {@code title}, with {@code warnings}. */
  public static String html(
      ReplayTimeline timeline, List<String> warnings, String title, EventTimeWindowing windowing) {
    StringBuilder page = new StringBuilder();
    page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>tidemark explain: ")
        .append(escape(title))
        .append("</title><style>")
        .append("body{font:14px sans-serif;margin:16px;color:#222}")
        .append("h1{font-size:18px}h2{font-size:15px;margin-top:20px}")
        .append(".warning{color:#8a4b00}code{font-size:12px}")
        .append("#plot{cursor:crosshair;display:block}")
        .append("#tooltip{position:absolute;display:none;white-space:pre;background:#fffff0;")
        .append("border:1px solid #999;padding:4px 6px;font-size:12px;pointer-events:none}")
        .append("#legend{margin:4px 0 0 190px;font-size:12px}")
        .append(".swatch{display:inline-block;width:12px;height:12px;margin:0 4px 0 10px;")
        .append("vertical-align:middle}.swatch.line{height:3px}.swatch.dash{height:2px}")
        .append("#sample{font-size:12px;color:#555;margin:4px 0 8px 190px}")
        .append("table{border-collapse:collapse;font-size:12px}")
        .append("td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}")
        .append("</style></head><body>\n<h1>tidemark explain: ")
        .append(escape(title))
        .append("</h1>\n<p>")
        .append(timeline.lines())
        .append(timeline.origins() == null ? " lines" : " records")
        .append(", ")
        .append(TimelineText.windowsOf(windowing))
        .append(", allowed lateness ")
        .append(DurationText.asOption(windowing.allowedLateness()))
        .append(": ")
        .append(timeline.windows().size())
        .append(windowing.kind().merges() ? " sessions closed, " : " windows, ")
        .append(timeline.panes().size())
        .append(" panes, ")
        .append(timeline.count(Kind.LATE))
        .append(" late, ")
        .append(timeline.count(Kind.DEAD))
        .append(" dead letters.</p>\n");
    warnings(warnings, page);
    page.append(
            String.format(
                Locale.ROOT,
                "<canvas id=\"plot\" width=\"%d\" height=\"%d\"></canvas>\n",
                WIDTH,
                HEIGHT))
        .append("<div id=\"legend\"></div>\n<div id=\"sample\"></div>\n")
        .append("<div id=\"tooltip\"></div>\n");
    heldBack(timeline, page);
    page.append("<h2>Panes</h2>\n<table><caption id=\"panes-caption\"></caption><thead><tr>")
        .append("<th>window</th><th>key</th><th>timing</th><th>pane</th><th>final</th>")
        .append("<th>count</th></tr></thead><tbody id=\"panes-body\"></tbody></table>\n");
    late(timeline, page);
    deadLetters(timeline, page);
    return page.append("<script type=\"application/json\" id=\"tidemark-data\">")
        .append(ReportData.of(timeline, windowing, ReportData.MAX_PANES))
        .append("</script>\n<script>\n")
        .append(SCRIPT)
        .append("</script>\n</body></html>\n")
        .toString();
  }

  private static String script() {
    try (InputStream in = TimelineReport.class.getResourceAsStream("report.js")) {
      if (in == null) {
        throw new IllegalStateException("report.js is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
          .append(", from ")
          .append(escape(timeline.nameOf(held.fromLine())))
          .append(" to ")
          .append(escape(timeline.nameOf(held.toLine())))
          .append(", up to ")
          .append(DurationText.asOption(held.behindNewest()))
          .append(" behind the newest partition</li>");
    }
    page.append("</ul>\n");
  }

  private static void late(ReplayTimeline timeline, StringBuilder page) {
    List<LateLine> late = timeline.late();
    page.append("<h2>Late records (")
        .append(listed(timeline.count(Kind.LATE), Math.min(LISTED, late.size())))
        .append(")</h2>\n<ul>");
    for (LateLine line : late.subList(0, Math.min(LISTED, late.size()))) {
      page.append("<li>")
          .append(escape(timeline.nameOf(line.line())))
          .append(": <code>")
          .append(escape(line.raw()))
          .append("</code> in [")
          .append(line.windowStart())
          .append(", ")
          .append(line.windowEnd())
          .append(") met watermark ")
          .append(line.watermark())
          .append(", late by ")
          .append(line.lateBy().getMillis())
          .append("ms (")
          .append(DurationText.asOption(line.pastWindowEnd()))
          .append(" past the window's end)</li>");
    }
    page.append("</ul>\n");
    if (!late.isEmpty()) {
      page.append("<p>The late records above: ")
          .append(escape(TimelineText.BURST_EFFECT))
          .append(".</p>\n");
    }
  }

  private static void deadLetters(ReplayTimeline timeline, StringBuilder page) {
    List<DeadLine> deadLetters = timeline.deadLetters();
    page.append("<h2>Dead letters (")
        .append(listed(timeline.count(Kind.DEAD), Math.min(LISTED, deadLetters.size())))
        .append(")</h2>\n<ul>");
    for (DeadLine line : deadLetters.subList(0, Math.min(LISTED, deadLetters.size()))) {
      page.append("<li>")
          .append(escape(timeline.nameOf(line.line())))
          .append(": <code>")
          .append(escape(line.raw()))
          .append("</code>: ")
          .append(escape(line.reason()))
          .append("</li>");
    }
    page.append("</ul>\n");
  }

  private static String listed(long count, int listed) {
    return count == listed ? String.valueOf(count) : count + ", the first " + listed + " listed";
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
