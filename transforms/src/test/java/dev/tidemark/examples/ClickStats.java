package dev.tidemark.examples;

import dev.tidemark.transforms.io.FileLines;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.parse.ParseRecords;
import dev.tidemark.transforms.parse.RecordFormat;
import dev.tidemark.transforms.replay.RecordReplay;
import dev.tidemark.transforms.windowing.AggregatePerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.PerWindowResult;
import java.io.Serializable;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.WithFailures;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The library guide's own-type example ({@code docs/library.md}): JSON clicks of the user's own
 * record type, parsed with dead letters ({@link ParseRecords}), aggregated per page and window by
 * the user's own {@code CombineFn} ({@link AggregatePerWindow#intoResult}), and the same from a
 * recording replayed by the watermark each line met ({@link RecordReplay}). The code between the
 * GUIDE markers is the guide's; {@link ClickStatsTest} is the guide's test of it, and {@link
 * ClickStatsGuideTest} fails when the guide and these files part ways.
 */
final class ClickStats {

  // GUIDE-OWN-TYPE-START
  /** A click of your own, as your JSON lines have it. */
  record Click(String userId, String page, long tsMillis, long durationMs)
      implements Serializable {}

  /** Reads your JSON lines; a line that is no click becomes a dead letter with the reason. */
  static final RecordFormat<Click> CLICKS =
      RecordFormat.json(Click.class, click -> new Instant(click.tsMillis()));

  static final EventTimeWindowing TEN_SECONDS =
      EventTimeWindowing.fixed(Duration.standardSeconds(10))
          .withAllowedLateness(Duration.standardSeconds(30));

  /** Clicks, time spent and the longest stay on one page in one window. */
  record PageStats(long clicks, long totalMs, long longestMs) implements Serializable {}

  /** Your own aggregate: the stats of the clicks it is given. */
  static final class PageStatsFn extends CombineFn<Click, PageStats, PageStats> {
    @Override
    public PageStats createAccumulator() {
      return new PageStats(0, 0, 0);
    }

    @Override
    public PageStats addInput(PageStats stats, Click click) {
      return new PageStats(
          stats.clicks() + 1,
          stats.totalMs() + click.durationMs(),
          Math.max(stats.longestMs(), click.durationMs()));
    }

    @Override
    public PageStats mergeAccumulators(Iterable<PageStats> all) {
      PageStats merged = createAccumulator();
      for (PageStats stats : all) {
        merged =
            new PageStats(
                merged.clicks() + stats.clicks(),
                merged.totalMs() + stats.totalMs(),
                Math.max(merged.longestMs(), stats.longestMs()));
      }
      return merged;
    }

    @Override
    public PageStats extractOutput(PageStats stats) {
      return stats;
    }
  }

  /**
   * The stats per page and window, the clicks that came too late, and the lines that are no click.
   */
  static PerWindowResult<String, Click, PageStats> statsPerPage(PCollection<String> lines) {
    WithFailures.Result<PCollection<Click>, DeadLetter> clicks =
        lines.apply("ParseClicks", ParseRecords.of(CLICKS));
    return clicks
        .output()
        .apply("ByPage", WithKeys.of(Click::page).withKeyType(TypeDescriptors.strings()))
        .apply("StatsPerPage", AggregatePerWindow.intoResult(TEN_SECONDS, new PageStatsFn()))
        .withDeadLetters(clicks.failures());
  }

  /** The same from a recording of your lines, each judged by the watermark it met. */
  static PerWindowResult<String, Click, PageStats> replayStatsPerPage(
      Pipeline pipeline, String files) {
    return pipeline.apply(
        "ReplayStatsPerPage",
        RecordReplay.of(FileLines.matching(files), CLICKS)
            .withMaxOutOfOrderness(Duration.standardSeconds(2))
            .aggregatePerWindow(
                TEN_SECONDS, Click::page, TypeDescriptors.strings(), new PageStatsFn()));
  }

  // GUIDE-OWN-TYPE-END
}
