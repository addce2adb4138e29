package dev.tidemark.examples;

// GUIDE-OWN-TYPE-TEST-START
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.replay.RecordingStream;
import dev.tidemark.transforms.windowing.KeyedExpired;
import dev.tidemark.transforms.windowing.KeyedPane;
import dev.tidemark.transforms.windowing.PerWindowResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** ClickStats with a late click, a too-late one and lines that are no click, live and replayed. */
@ExtendWith(TestPipelineExtension.class)
class ClickStatsTest {

  private static final long START = 1_700_000_000_000L;

  @Test
  void liveLinesGiveFinalStatsLateClicksAndDeadLetters(TestPipeline pipeline) {
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
    PerWindowResult<String, ClickStats.Click, ClickStats.PageStats> stats =
        ClickStats.statsPerPage(pipeline.apply(lines));

    PAssert.that(finalStats(stats.finalPanes()))
        .containsInAnyOrder(
            "/home 3 clicks 1300 ms longest 900", "/cart 1 clicks 50 ms longest 50");
    PAssert.that(tooLate(stats.expired())).containsInAnyOrder("u5 late by 40000 ms");
    PAssert.that(reasons(stats.deadLetters()))
        .containsInAnyOrder(
            "not a click: Unrecognized token 'not': was expecting (JSON String, Number, Array,"
                + " Object or token 'null', 'true' or 'false')",
            "{\"page\":\"/home\"}: Missing creator property 'userId' (index 0)");
    pipeline.run().waitUntilFinish();
  }

  @Test
  void aReplayedFileJudgesEachLineByTheWatermarkItMet(TestPipeline pipeline, @TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("clicks.json");
    Files.write(file, recording());
    PerWindowResult<String, ClickStats.Click, ClickStats.PageStats> stats =
        ClickStats.replayStatsPerPage(pipeline, file.toString());

    PAssert.that(finalStats(stats.finalPanes()))
        .containsInAnyOrder(
            "/home 3 clicks 1300 ms longest 900",
            "/cart 1 clicks 50 ms longest 50",
            "/home 1 clicks 1 ms longest 1",
            "/cart 1 clicks 7 ms longest 7");
    PAssert.that(
            stats
                .panes()
                .apply("LatePanes", Filter.by(pane -> pane.pane().timing() == Timing.LATE))
                .apply(
                    "LateClicks",
                    MapElements.into(TypeDescriptors.longs()).via(pane -> pane.value().clicks())))
        .containsInAnyOrder(3L);
    PAssert.that(tooLate(stats.expired())).containsInAnyOrder("u5 late by 37999 ms");
    PAssert.that(reasons(stats.deadLetters()))
        .containsInAnyOrder(
            "not a click: Unrecognized token 'not': was expecting (JSON String, Number, Array,"
                + " Object or token 'null', 'true' or 'false')");
    pipeline.run().waitUntilFinish();
  }

  @Test
  void theRecordingLiveGivesWhatItsReplayGives(TestPipeline pipeline, @TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("clicks.json");
    Files.write(file, recording());
    // The same lines as a live source gives them, under the replay's watermark rule.
    PerWindowResult<String, ClickStats.Click, ClickStats.PageStats> live =
        ClickStats.statsPerPage(
            pipeline.apply(
                "Live",
                RecordingStream.of(recording(), ClickStats.CLICKS, Duration.standardSeconds(2))));
    PerWindowResult<String, ClickStats.Click, ClickStats.PageStats> replayed =
        ClickStats.replayStatsPerPage(pipeline, file.toString());

    PAssert.that(
            RecordingStream.differences(
                "FinalPanes",
                finalStats("Live", live.finalPanes()),
                finalStats("Replayed", replayed.finalPanes())))
        .empty();
    PAssert.that(
            RecordingStream.differences(
                "Expired",
                tooLate("Live", live.expired()),
                tooLate("Replayed", replayed.expired())))
        .empty();
    pipeline.run().waitUntilFinish();
  }

  /** A recording of clicks: on time, late within the lateness, too late, and a line no click. */
  private static List<String> recording() {
    return List.of(
        json("u1", "/home", 1_000, 300),
        json("u2", "/home", 2_000, 900),
        json("u3", "/cart", 3_000, 50),
        "not a click",
        // The watermark goes to 2 s (and 1 ms) behind this click: [0 s, 10 s) closes.
        json("u6", "/home", 14_000, 1),
        // Late within the lateness: a LATE pane of [0 s, 10 s).
        json("u4", "/home", 4_000, 100),
        // The watermark goes past 40 s: [0 s, 10 s) expires.
        json("u7", "/cart", 45_000, 7),
        // Too late.
        json("u5", "/home", 5_000, 5_000));
  }

  private static PCollection<String> finalStats(
      PCollection<KeyedPane<String, ClickStats.PageStats>> finalPanes) {
    return finalStats("", finalPanes);
  }

  private static PCollection<String> finalStats(
      String which, PCollection<KeyedPane<String, ClickStats.PageStats>> finalPanes) {
    return finalPanes.apply(
        which + "Stats",
        MapElements.into(TypeDescriptors.strings())
            .via(
                pane ->
                    pane.key()
                        + " "
                        + pane.value().clicks()
                        + " clicks "
                        + pane.value().totalMs()
                        + " ms longest "
                        + pane.value().longestMs()));
  }

  private static PCollection<String> tooLate(
      PCollection<KeyedExpired<String, ClickStats.Click>> expired) {
    return tooLate("", expired);
  }

  private static PCollection<String> tooLate(
      String which, PCollection<KeyedExpired<String, ClickStats.Click>> expired) {
    return expired.apply(
        which + "TooLate",
        MapElements.into(TypeDescriptors.strings())
            .via(
                (KeyedExpired<String, ClickStats.Click> late) ->
                    late.value().userId() + " late by " + late.lateBy().getMillis() + " ms"));
  }

  private static PCollection<String> reasons(PCollection<DeadLetter> deadLetters) {
    return deadLetters.apply(
        "Reasons",
        MapElements.into(TypeDescriptors.strings())
            .via(letter -> letter.raw() + ": " + letter.reason()));
  }

  /** A click's JSON line, stamped with its event time as a source would stamp it. */
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
// GUIDE-OWN-TYPE-TEST-END
