package dev.tidemark.examples;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;

import dev.tidemark.transforms.io.FileLines;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.parse.ParseRecords;
import dev.tidemark.transforms.parse.RecordFormat;
import dev.tidemark.transforms.replay.RecordReplay;
import dev.tidemark.transforms.replay.RecordReplayPerWindow;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.windowing.AggregatePerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.WithFailures;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The library guide's own-type example ({@code docs/library.md}): JSON clicks of the user's own
 * record type, parsed with dead letters ({@link ParseRecords}), aggregated per page and window by
 * the user's own {@code CombineFn} ({@link AggregatePerWindow}), and the same from a recording
 * replayed by the watermark each line met ({@link RecordReplay}). Each run has an on-time click,
 * one late within the lateness, one too late and lines that are no click, on the DirectRunner and
 * on embedded Flink. Kept as a test so it cannot rot: the code between the GUIDE markers is the
 * guide's, and {@link #theGuideShowsThisCode} fails when the two differ.
 */
class ClickStatsExampleTest {

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

  /** The stats per page and window: each pane, and each click that came too late. */
  static final AggregatePerWindow<String, Click, PageStats> PER_PAGE =
      AggregatePerWindow.of(TEN_SECONDS, new PageStatsFn());

  /** Live lines in, from any source that stamps them no later than their event time. */
  static PCollectionTuple statsPerPage(PCollection<String> lines) {
    WithFailures.Result<PCollection<Click>, DeadLetter> clicks =
        lines.apply("ParseClicks", ParseRecords.of(CLICKS, SerializableCoder.of(Click.class)));
    return clicks
        .output()
        .apply("ByPage", WithKeys.of(Click::page).withKeyType(TypeDescriptors.strings()))
        .apply("StatsPerPage", PER_PAGE)
        .and(ParseRecords.DEAD_LETTER, clicks.failures());
  }

  /** The same from a recording of your lines, each judged by the watermark it met. */
  static RecordReplayPerWindow<String, Click, PageStats> replayStatsPerPage(String files) {
    return RecordReplay.of(FileLines.matching(files), CLICKS, SerializableCoder.of(Click.class))
        .withMaxOutOfOrderness(Duration.standardSeconds(2))
        .aggregatePerWindow(TEN_SECONDS, Click::page, StringUtf8Coder.of(), new PageStatsFn());
  }

  // GUIDE-OWN-TYPE-END

  private static final long START = 1_700_000_000_000L;

  static Stream<Arguments> runners() {
    return Stream.of(
        Arguments.of("DirectRunner", 1),
        Arguments.of("FlinkRunner", 1),
        Arguments.of("FlinkRunner", 2));
  }

  static Stream<Arguments> runnersForTestStream() {
    return Stream.of(Arguments.of("DirectRunner"), Arguments.of("FlinkRunner"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runnersForTestStream")
  void liveLinesGiveFinalStatsLateClicksAndDeadLetters(String runner) {
    Pipeline pipeline = Pipeline.create(forTestStream(runner));
    // GUIDE-OWN-TYPE-TEST-START
    TestStream<String> lines =
        TestStream.create(StringUtf8Coder.of())
            .addElements(
                line("u1", "/home", 1_000, 300),
                line("u2", "/home", 2_000, 900),
                line("u3", "/cart", 3_000, 50),
                TimestampedValue.of("not a click", new Instant(START)),
                TimestampedValue.of("{\"page\":\"/home\"}", new Instant(START)))
            // The window [0 s, 10 s) closes: its ON_TIME pane. A click late within the lateness.
            .advanceWatermarkTo(new Instant(START + 15_000))
            .addElements(line("u4", "/home", 4_000, 100))
            // The window expires 30 s after its end: a click for it now is too late.
            .advanceWatermarkTo(new Instant(START + 45_000))
            .addElements(line("u5", "/home", 5_000, 5_000))
            .advanceWatermarkToInfinity();
    PCollectionTuple stats = statsPerPage(pipeline.apply(lines));

    PAssert.that(finalStats(stats.get(PER_PAGE.panes())))
        .containsInAnyOrder(
            "/home 3 clicks 1300 ms longest 900", "/cart 1 clicks 50 ms longest 50");
    PAssert.that(tooLate(stats.get(PER_PAGE.expired()))).containsInAnyOrder("u5 late by 40000 ms");
    PAssert.that(reasons(stats.get(ParseRecords.DEAD_LETTER)))
        .containsInAnyOrder(
            "not a click: Unrecognized token 'not': was expecting (JSON String, Number, Array,"
                + " Object or token 'null', 'true' or 'false')",
            "{\"page\":\"/home\"}: Missing creator property 'userId' (index 0)");
    pipeline.run().waitUntilFinish();
    // GUIDE-OWN-TYPE-TEST-END
  }

  @ParameterizedTest(name = "{0} at parallelism {1}")
  @MethodSource("runners")
  void aReplayedFileGivesTheSameByTheWatermarkEachLineMet(
      String runner, int parallelism, @TempDir Path dir) throws Exception {
    Path file = dir.resolve("clicks.json");
    Files.write(
        file,
        List.of(
            json("u1", "/home", 1_000, 300),
            json("u2", "/home", 2_000, 900),
            json("u3", "/cart", 3_000, 50),
            "not a click",
            // Its event time moves the watermark to 12 s (2 s behind): [0 s, 10 s) closes.
            json("u6", "/home", 14_000, 1),
            // Late within the lateness: a LATE pane of [0 s, 10 s).
            json("u4", "/home", 4_000, 100),
            // The watermark goes to 2 s and 1 ms behind it: [0 s, 10 s) expires.
            json("u7", "/cart", 45_000, 7),
            // Too late.
            json("u5", "/home", 5_000, 5_000)));
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, parallelism));
    RecordReplayPerWindow<String, Click, PageStats> replay = replayStatsPerPage(file.toString());
    PCollectionTuple stats = pipeline.apply(replay);

    PAssert.that(finalStats(stats.get(replay.panes())))
        .containsInAnyOrder(
            "/home 3 clicks 1300 ms longest 900",
            "/cart 1 clicks 50 ms longest 50",
            "/home 1 clicks 1 ms longest 1",
            "/cart 1 clicks 7 ms longest 7");
    PAssert.that(
            stats
                .get(replay.panes())
                .apply(
                    "LatePanes",
                    Filter.by(pane -> pane.getValue().getKey().timing().name().equals("LATE")))
                .apply(
                    "LateClicks",
                    MapElements.into(TypeDescriptors.longs())
                        .via(pane -> pane.getValue().getValue().clicks())))
        .containsInAnyOrder(3L);
    PAssert.that(tooLate(stats.get(replay.expired()))).containsInAnyOrder("u5 late by 37999 ms");
    PAssert.that(
            stats
                .get(RecordReplayPerWindow.DEAD_LETTER)
                .apply("DeadLines", MapElements.into(TypeDescriptors.strings()).via(d -> d.raw())))
        .containsInAnyOrder("not a click");
    pipeline.run().waitUntilFinish();
  }

  @Test
  void theGuideShowsThisCode() throws Exception {
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(
                ClickStatsExampleTest.class, "GUIDE-OWN-TYPE-START", "GUIDE-OWN-TYPE-END")));
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(
                ClickStatsExampleTest.class,
                "GUIDE-OWN-TYPE-TEST-START",
                "GUIDE-OWN-TYPE-TEST-END")));
  }

  /**
   * A TestStream run as the guide says to make one on Flink: parallelism 1 and bundles of one
   * element, so each watermark advance reaches the steps in order with the elements around it.
   */
  private static PipelineOptions forTestStream(String runner) {
    PipelineOptions options = Runners.untilTheStreamEnds(runner, 1);
    if (options instanceof FlinkPipelineOptions flink) {
      flink.setMaxBundleSize(1L);
    }
    return options;
  }

  private static PCollection<String> finalStats(
      PCollection<KV<String, KV<dev.tidemark.transforms.model.WindowPane, PageStats>>> panes) {
    return panes
        .apply("FinalPanes", Filter.by(pane -> pane.getValue().getKey().isFinal()))
        .apply(
            "Stats",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    pane -> {
                      PageStats stats = pane.getValue().getValue();
                      return pane.getKey()
                          + " "
                          + stats.clicks()
                          + " clicks "
                          + stats.totalMs()
                          + " ms longest "
                          + stats.longestMs();
                    }));
  }

  private static PCollection<String> tooLate(PCollection<KV<String, Expired<Click>>> expired) {
    return expired.apply(
        "TooLateUsers",
        MapElements.into(TypeDescriptors.strings())
            .via(
                (KV<String, Expired<Click>> late) ->
                    late.getValue().value().userId()
                        + " late by "
                        + late.getValue().lateBy().getMillis()
                        + " ms"));
  }

  private static PCollection<String> reasons(PCollection<DeadLetter> deadLetters) {
    return deadLetters.apply(
        "Reasons",
        MapElements.into(TypeDescriptors.strings())
            .via(letter -> letter.raw() + ": " + letter.reason()));
  }

  private static TimestampedValue<String> line(
      String user, String page, long afterStart, long durationMs) {
    return TimestampedValue.of(
        json(user, page, afterStart, durationMs), new Instant(START + afterStart));
  }

  private static String json(String user, String page, long afterStart, long durationMs) {
    return String.format(
        "{\"userId\":\"%s\",\"page\":\"%s\",\"tsMillis\":%d,\"durationMs\":%d}",
        user, page, START + afterStart, durationMs);
  }
}
