package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.PlayedStream;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The named cases of session windows, pane by pane, on the DirectRunner and on Flink, each stream
 * played in exactly its order ({@link PlayedStream}): sessions merge as records come, records
 * exactly a gap apart included; the last session fires when the input goes quiet; a record late
 * within the lateness merges two sessions that gave their rows, and both rows are withdrawn; an
 * expired session never reopens.
 */
class SessionWindowsTest {

  private static final Instant BASE_TIME = new Instant(1_600_000_000_000L);
  private static final Duration SECOND = Duration.standardSeconds(1);
  private static final EventTimeWindowing FIVE_SECOND_GAP =
      EventTimeWindowing.sessions(SECOND.multipliedBy(5)).withIdleFlush(SECOND.multipliedBy(10));

  private static TimestampedValue<KV<String, Long>> event(long offsetMillis) {
    return TimestampedValue.of(KV.of("a", 1L), BASE_TIME.plus(offsetMillis));
  }

  private static TestStream.Builder<KV<String, Long>> stream() {
    return TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
        .advanceWatermarkTo(BASE_TIME);
  }

  /** "start..end timing[ final][ merged into start..end] = sum", in seconds from the base time. */
  private static List<String> panes(
      String runner, TestStream<KV<String, Long>> events, EventTimeWindowing windowing) {
    PlayedStream<KV<String, Long>> played = PlayedStream.of(events, runner, 1);
    Collected panes = new Collected();
    played
        .pipeline()
        .apply(played.stream())
        .apply(AggregatePerWindow.intoResult(windowing, Sum.ofLongs()))
        .panes()
        .apply(
            "PaneLines",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    (KeyedPane<String, Long> p) -> {
                      WindowPane pane = p.pane();
                      return seconds(pane.windowStart())
                          + ".."
                          + seconds(pane.windowEnd())
                          + " "
                          + pane.timing()
                          + (pane.isFinal() ? " final" : "")
                          + (pane.isWithdrawn()
                              ? " merged into "
                                  + seconds(pane.mergedInto().start())
                                  + ".."
                                  + seconds(pane.mergedInto().end())
                              : "")
                          + " = "
                          + p.value();
                    }))
        .apply(panes.sink());
    assertThat(played.pipeline().run().waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    return panes.snapshot();
  }

  private static long seconds(Instant instant) {
    return (instant.getMillis() - BASE_TIME.getMillis()) / 1000;
  }

  @ParameterizedTest
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void sessionsMergeAsTheyTouchAndRecordsAGapApartJoin(String runner) {
    // (1) 0 s and 5 s: [0, 5) and [5, 10) touch, one session. (2) 20 s is a session of its own.
    List<String> panes =
        panes(
            runner,
            stream()
                .addElements(event(0), event(5_000), event(20_000))
                .advanceWatermarkToInfinity(),
            FIVE_SECOND_GAP);

    assertThat(panes, containsInAnyOrder("0..10 ON_TIME final = 2", "20..25 ON_TIME final = 1"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void lateRecordMergesTwoSessionsAndWithdrawsTheirRows(String runner) {
    EventTimeWindowing withLateness = FIVE_SECOND_GAP.withAllowedLateness(SECOND.multipliedBy(10));
    List<String> panes =
        panes(
            runner,
            stream()
                .addElements(event(0), event(8_000))
                // (1) Both sessions have closed and given their ON_TIME rows; neither expired.
                .advanceWatermarkTo(BASE_TIME.plus(13_500))
                // (2) 4 s touches both: they merge into [0, 13), and their rows are withdrawn.
                .addElements(event(4_000))
                .advanceWatermarkToInfinity(),
            withLateness);

    assertThat(
        panes,
        containsInAnyOrder(
            "0..5 ON_TIME = 1",
            "8..13 ON_TIME = 1",
            "0..5 LATE final merged into 0..13 = 1",
            "8..13 LATE final merged into 0..13 = 1",
            "0..13 LATE = 3",
            "0..13 LATE final = 3"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void expiredSessionNeverReopens(String runner) {
    List<String> panes =
        panes(
            runner,
            stream()
                .addElements(event(0))
                // (1) [0, 5) expires: its last millisecond is behind the watermark.
                .advanceWatermarkTo(BASE_TIME.plus(7_001))
                // (2) 1 s could join only the expired session, and its own [1, 6) has expired:
                // late. (3) 4 s touches [0, 5), but that is gone, as in Flink SQL: it opens
                // [4, 9), which 6 s then grows.
                .addElements(event(1_000), event(4_000), event(6_000))
                .advanceWatermarkToInfinity(),
            FIVE_SECOND_GAP);

    assertThat(panes, containsInAnyOrder("0..5 ON_TIME final = 1", "4..11 ON_TIME final = 2"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"DirectRunner"})
  void lastSessionFiresWhenTheInputGoesQuiet(String runner) {
    List<String> panes =
        panes(
            runner,
            stream()
                .addElements(event(1_000), event(3_000))
                .advanceWatermarkTo(BASE_TIME.plus(2_000))
                // (1) Silence while the watermark is held: the open session reports.
                .advanceProcessingTime(SECOND.multipliedBy(11))
                // (2) 9 s extends it: the EARLY row of [1, 8) is withdrawn.
                .addElements(event(7_000))
                .advanceWatermarkToInfinity(),
            FIVE_SECOND_GAP);

    assertThat(
        panes,
        containsInAnyOrder(
            "1..8 EARLY = 2", "1..8 EARLY final merged into 1..12 = 2", "1..12 ON_TIME final = 3"));
  }
}
