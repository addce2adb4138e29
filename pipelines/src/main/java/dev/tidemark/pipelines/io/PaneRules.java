package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.watermark.DurationText;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.WindowKind;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says, once per run as its pipeline is built, which of the pane engine's two judges decides its
 * records' panes, the live rules or the replay's, and the values in force: window size, allowed
 * lateness, out-of-orderness, idle timeout, idle flush and which panes are written. The one way the
 * two judges' output differs is stated with it, so a user comparing a recording with a live run
 * knows what to expect.
 */
public final class PaneRules {

  private static final Logger LOG = LoggerFactory.getLogger("tidemark.rules");

  private PaneRules() {}

  /** Logs the rules that judge the records of {@code sources}. */
  public static void log(
      List<Source> sources,
      boolean replayed,
      EventTimeWindowing windowing,
      EventTimeSettings eventTime) {
    LOG.info(line(sources, replayed, windowing, eventTime));
  }

  static String line(
      List<Source> sources,
      boolean replayed,
      EventTimeWindowing windowing,
      EventTimeSettings eventTime) {
    String judge =
        replayed
            ? "replay rules: each record is judged by the watermark it met at its source, in the"
                + " recording's order; a window's panes come out when it expires, the last final"
            : "live rules: each record is judged by the watermark of the step that decides its"
                + " window, as it reaches it; with --allowedLateness a window gives ON_TIME at its"
                + " end and a final pane when it expires";
    return sources.stream().map(Source::describe).collect(Collectors.joining(", "))
        + ": "
        + judge
        + "; "
        + windowOptions(windowing.kind())
        + " --allowedLateness="
        + DurationText.asOption(windowing.allowedLateness())
        + " --maxOutOfOrderness="
        + DurationText.asOption(eventTime.maxOutOfOrderness())
        + " --idleTimeout="
        + DurationText.asOption(eventTime.idleTimeout())
        + " --idleFlush="
        + DurationText.asOption(windowing.idleFlush())
        + " --emit="
        + (windowing.finalPaneOnly() ? "final" : "all");
  }

  /** The options that give {@code kind}'s windows, as a user types them. */
  public static String windowOptions(WindowKind kind) {
    String size = "--windowSize=" + DurationText.asOption(kind.size());
    switch (kind.shape()) {
      case SLIDING:
        return size + " --windowSlide=" + DurationText.asOption(kind.slide());
      case CUMULATING:
        return size + " --windowStep=" + DurationText.asOption(kind.slide());
      case SESSIONS:
        return "--sessionGap=" + DurationText.asOption(kind.size());
      default:
        return size;
    }
  }
}
