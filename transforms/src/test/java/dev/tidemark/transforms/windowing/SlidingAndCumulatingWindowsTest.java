package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.WindowPane;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The named cases of sliding and cumulating windows, pane by pane: a record is in every window that
 * holds it; each window closes, fires when idle and expires on its own; a record late for older
 * windows is counted in the newer ones and is in the late output once. DirectRunner, with
 * processing time for the idle flush; {@code LateAccountingPropertyTest} holds both kinds to a
 * reference on Flink as well.
 */
@ExtendWith(TestPipelineExtension.class)
class SlidingAndCumulatingWindowsTest {

  private static final Instant BASE_TIME = new Instant(1_600_000_000_000L);
  private static final Duration SECOND = Duration.standardSeconds(1);
  private static final EventTimeWindowing TEN_EVERY_FIVE =
      EventTimeWindowing.sliding(SECOND.multipliedBy(10), SECOND.multipliedBy(5))
          .withIdleFlush(SECOND.multipliedBy(10));

  private static TimestampedValue<KV<String, Long>> event(String key, long offsetMillis) {
    return TimestampedValue.of(KV.of(key, 1L), BASE_TIME.plus(offsetMillis));
  }

  private static TestStream.Builder<KV<String, Long>> stream() {
    return TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
        .advanceWatermarkTo(BASE_TIME);
  }

  /** "start..end timing #index final? = value", relative to {@link #BASE_TIME}, in seconds. */
  private static PCollection<String> panes(PCollection<KeyedPane<String, Long>> panes) {
    return panes.apply(
        "PaneLines",
        MapElements.into(TypeDescriptors.strings())
            .via(
                (KeyedPane<String, Long> p) -> {
                  WindowPane pane = p.pane();
                  return p.key()
                      + " "
                      + seconds(pane.windowStart())
                      + ".."
                      + seconds(pane.windowEnd())
                      + " "
                      + pane.timing()
                      + (pane.isFinal() ? " final" : "")
                      + " = "
                      + p.value();
                }));
  }

  private static long seconds(Instant instant) {
    return (instant.getMillis() - BASE_TIME.getMillis()) / 1000;
  }

  private static PerWindowResult<String, Long, Long> counted(
      TestPipeline p, TestStream<KV<String, Long>> events, EventTimeWindowing windowing) {
    return p.apply(events).apply(AggregatePerWindow.intoResult(windowing, Sum.ofLongs()));
  }

  /** "start..end late by N ms", of each expired record's latest missed window. */
  private static PCollection<String> missed(PerWindowResult<String, Long, Long> counted) {
    return counted
        .expired()
        .apply(
            "MissedWindows",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    (KeyedExpired<String, Long> late) ->
                        seconds(late.window().start())
                            + ".."
                            + seconds(late.window().end())
                            + " late by "
                            + late.lateBy().getMillis()
                            + " ms"));
  }

  @Test
  void onTime(TestPipeline p) {
    PerWindowResult<String, Long, Long> counted =
        counted(
            p,
            stream()
                .addElements(event("a", 7_000), event("a", 12_000))
                .advanceWatermarkToInfinity(),
            TEN_EVERY_FIVE);

    // (1) 7 s is in [0, 10) and [5, 15); 12 s in [5, 15) and [10, 20). (2) One final pane each.
    PAssert.that(panes(counted.panes()))
        .containsInAnyOrder(
            "a 0..10 ON_TIME final = 1", "a 5..15 ON_TIME final = 2", "a 10..20 ON_TIME final = 1");
    PAssert.that(counted.expired()).empty();
    p.run();
  }

  @Test
  void partlyLateIsCountedWhereOnTimeAndLateOnceForTheRest(TestPipeline p) {
    PerWindowResult<String, Long, Long> counted =
        counted(
            p,
            stream()
                .addElements(event("a", 3_000))
                // (1) [0, 10) expires at its last millisecond: 9,999 < 10,001.
                .advanceWatermarkTo(BASE_TIME.plus(10_001))
                // (2) 7 s missed [0, 10) and is on time for [5, 15).
                .addElements(event("a", 7_000))
                .advanceWatermarkToInfinity(),
            TEN_EVERY_FIVE);

    PAssert.that(panes(counted.panes()))
        .containsInAnyOrder(
            "a -5..5 ON_TIME final = 1", "a 0..10 ON_TIME final = 1", "a 5..15 ON_TIME final = 1");
    PAssert.that(missed(counted)).containsInAnyOrder("0..10 late by 3001 ms");
    p.run();
  }

  @Test
  void observablyLateForOneWindowOnTimeForTheNext(TestPipeline p) {
    EventTimeWindowing withLateness = TEN_EVERY_FIVE.withAllowedLateness(SECOND.multipliedBy(2));
    PerWindowResult<String, Long, Long> counted =
        counted(
            p,
            stream()
                .addElements(event("a", 3_000))
                // (1) [0, 10) has closed, and expires only after 11,999.
                .advanceWatermarkTo(BASE_TIME.plus(10_500))
                // (2) A LATE pane of [0, 10) at once; on time for [5, 15).
                .addElements(event("a", 7_000))
                .advanceWatermarkToInfinity(),
            withLateness);

    // Each window closes with an ON_TIME pane and gives its final pane when it expires.
    PAssert.that(panes(counted.panes()))
        .containsInAnyOrder(
            "a -5..5 ON_TIME = 1",
            "a -5..5 LATE final = 1",
            "a 0..10 ON_TIME = 1",
            "a 0..10 LATE = 2",
            "a 0..10 LATE final = 2",
            "a 5..15 ON_TIME = 1",
            "a 5..15 LATE final = 1");
    PAssert.that(counted.expired()).empty();
    p.run();
  }

  @Test
  void speculativeIdleFlushReportsEveryOpenWindow(TestPipeline p) {
    PerWindowResult<String, Long, Long> counted =
        counted(
            p,
            stream()
                .addElements(event("a", 3_000), event("a", 7_000))
                .advanceWatermarkTo(BASE_TIME.plus(1_000))
                // (1) Silence while the watermark is held: each window with data reports.
                .advanceProcessingTime(SECOND.multipliedBy(11))
                // (2) Then the windows close, each with one final pane.
                .advanceWatermarkToInfinity(),
            TEN_EVERY_FIVE);

    PAssert.that(panes(counted.panes()))
        .containsInAnyOrder(
            "a -5..5 EARLY = 1",
            "a 0..10 EARLY = 2",
            "a 5..15 EARLY = 1",
            "a -5..5 ON_TIME final = 1",
            "a 0..10 ON_TIME final = 2",
            "a 5..15 ON_TIME final = 1");
    p.run();
  }

  @Test
  void cumulatingWindowsGiveRunningTotals(TestPipeline p) {
    // Spans of 6 s are aligned to the epoch: one starts 2 s after the base time.
    Instant span = BASE_TIME.plus(2_000);
    EventTimeWindowing everyTwoUpToSix =
        EventTimeWindowing.cumulating(SECOND.multipliedBy(2), SECOND.multipliedBy(6));
    PerWindowResult<String, Long, Long> summed =
        p.apply(
                TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
                    .advanceWatermarkTo(BASE_TIME)
                    .addElements(
                        TimestampedValue.of(KV.of("a", 1L), span.plus(1_000)),
                        TimestampedValue.of(KV.of("a", 2L), span.plus(3_000)),
                        TimestampedValue.of(KV.of("a", 4L), span.plus(5_999)),
                        TimestampedValue.of(KV.of("a", 8L), span.plus(6_000)))
                    .advanceWatermarkToInfinity())
            .apply(AggregatePerWindow.intoResult(everyTwoUpToSix, Sum.ofLongs()));

    // (1) From the span's start: 1, then 1 + 2, then 1 + 2 + 4. (2) 6 s on, the next span.
    PAssert.that(
            panes(summed.panes())
                .apply("FinalOnly", Filter.by((String line) -> line.contains("final"))))
        .containsInAnyOrder(
            "a 2..4 ON_TIME final = 1",
            "a 2..6 ON_TIME final = 3",
            "a 2..8 ON_TIME final = 7",
            "a 8..10 ON_TIME final = 8",
            "a 8..12 ON_TIME final = 8",
            "a 8..14 ON_TIME final = 8");
    p.run();
  }
}
