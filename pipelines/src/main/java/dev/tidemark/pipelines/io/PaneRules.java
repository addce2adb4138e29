package dev.tidemark.pipelines.io;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says, once per source as a pipeline is built, which of the pane engine's two judges decides its
 * records' panes: the live rules or the replay's. The one way their output differs is stated with
 * it, so a user comparing a recording with a live run knows what to expect.
 */
public final class PaneRules {

  private static final Logger LOG = LoggerFactory.getLogger("tidemark.rules");

  private PaneRules() {}

  /** Logs the rules that judge {@code source}'s records. */
  public static void log(Source source, boolean replayed) {
    if (replayed) {
      LOG.info(
          "{}: replay rules: each record is judged by the watermark it met at its source, in the"
              + " recording's order; a window's panes come out when it expires, the last final",
          source.describe());
    } else {
      LOG.info(
          "{}: live rules: each record is judged by the watermark of the step that decides its"
              + " window, as it reaches it; with --allowedLateness a window gives ON_TIME at its"
              + " end and a final pane when it expires",
          source.describe());
    }
  }
}
