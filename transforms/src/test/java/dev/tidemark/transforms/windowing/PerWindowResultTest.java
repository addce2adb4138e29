package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.io.FileLines;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.RecordFormat;
import dev.tidemark.transforms.replay.RecordReplay;
import dev.tidemark.transforms.testing.BeamCounters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AggregatePerWindow#intoResult} gives every output of the window step in one {@link
 * PerWindowResult}: all panes, the final ones alone, the expired values with how late they were,
 * and dead letters (none of its own, and those added to it).
 */
@ExtendWith(TestPipelineExtension.class)
class PerWindowResultTest {

  private static final Instant START = new Instant(1_700_000_000_000L);
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(Duration.standardSeconds(10))
          .withAllowedLateness(Duration.standardSeconds(5));

  @Test
  void panesFinalPanesExpiredValuesAndDeadLetters(TestPipeline pipeline) {
    TestStream<KV<String, Long>> sums =
        TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
            .addElements(value("a", 1_000, 1), value("a", 2_000, 2), value("b", 3_000, 4))
            // [0 s, 10 s) closes, and expires at 15 s: the next value is 2 s too late.
            .advanceWatermarkTo(START.plus(Duration.standardSeconds(17)))
            .addElements(value("a", 4_000, 8))
            .advanceWatermarkToInfinity();
    PerWindowResult<String, Long, Long> result =
        pipeline
            .apply(sums)
            .apply(AggregatePerWindow.intoResult(WINDOWING, Sum.ofLongs()))
            .withDeadLetters(
                pipeline.apply("OneDeadLetter", Create.of(new DeadLetter("x", "not a value"))));

    PAssert.that(
            result
                .finalPanes()
                .apply(
                    "Finals",
                    MapElements.into(TypeDescriptors.strings())
                        .via(pane -> pane.key() + "=" + pane.value() + " " + pane.pane().timing())))
        .containsInAnyOrder("a=3 ON_TIME", "b=4 ON_TIME");
    PAssert.that(
            result
                .panes()
                .apply(
                    "All",
                    MapElements.into(TypeDescriptors.strings())
                        .via(pane -> pane.key() + (pane.isFinal() ? " final" : " not final"))))
        .containsInAnyOrder("a final", "b final");
    PAssert.that(
            result
                .expired()
                .apply(
                    "Late",
                    MapElements.into(TypeDescriptors.strings())
                        .via(
                            (KeyedExpired<String, Long> late) ->
                                late.key()
                                    + " "
                                    + late.value()
                                    + " late by "
                                    + late.lateBy().getMillis())))
        .containsInAnyOrder("a 8 late by 13000");
    PAssert.that(
            result
                .deadLetters()
                .apply("Reasons", MapElements.into(TypeDescriptors.strings()).via(d -> d.reason())))
        .containsInAnyOrder("not a value");
    PipelineResult run = pipeline.run();
    run.waitUntilFinish();
    // Each pane handed on, counted as the pipelines count the rows they write.
    assertThat(BeamCounters.tidemark(run, TidemarkMetrics.RESULTS_OUT), equalTo(2L));
  }

  @Test
  void aReplaysPanesAreCountedAsResultsOutToo(TestPipeline pipeline, @TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("values.txt");
    Files.write(file, List.of("a,1000", "a,2000", "b,3000", "b,25000"));
    RecordFormat<String> lines =
        RecordFormat.of(
            raw -> raw, raw -> START.plus(Long.parseLong(raw.substring(raw.indexOf(',') + 1))));
    PerWindowResult<String, String, Long> result =
        pipeline.apply(
            RecordReplay.of(FileLines.matching(file.toString()), lines, StringUtf8Coder.of())
                .aggregatePerWindow(
                    WINDOWING,
                    raw -> raw.substring(0, 1),
                    TypeDescriptors.strings(),
                    Count.<String>combineFn()));

    PAssert.that(
            result
                .finalPanes()
                .apply(
                    "Counts",
                    MapElements.into(TypeDescriptors.strings())
                        .via(pane -> pane.key() + "=" + pane.value())))
        .containsInAnyOrder("a=2", "b=1", "b=1");
    PipelineResult run = pipeline.run();
    run.waitUntilFinish();
    assertThat(BeamCounters.tidemark(run, TidemarkMetrics.RESULTS_OUT), equalTo(3L));
  }

  @Test
  void noDeadLettersWhenNoStepGaveAny(TestPipeline pipeline) {
    PerWindowResult<String, Long, Long> result =
        pipeline
            .apply(
                Create.timestamped(value("a", 1_000, 1))
                    .withCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of())))
            .apply(AggregatePerWindow.intoResult(WINDOWING, Sum.ofLongs()));

    PAssert.that(result.deadLetters()).empty();
    PAssert.that(
            result
                .finalPanes()
                .apply("Sums", MapElements.into(TypeDescriptors.longs()).via(KeyedPane::value)))
        .containsInAnyOrder(1L);
    pipeline.run().waitUntilFinish();
  }

  @Test
  void keyedPanesAndExpiredValuesRoundTripThroughTheirCoders() throws Exception {
    IntervalWindow window = new IntervalWindow(START, START.plus(Duration.standardSeconds(10)));
    KeyedPane<String, Long> pane =
        new KeyedPane<>("a", new WindowPane(START, window.end(), Timing.LATE, 2, true), 7L);
    CoderProperties.coderDecodeEncodeEqual(
        KeyedPane.KeyedPaneCoder.of(StringUtf8Coder.of(), VarLongCoder.of()), pane);
    CoderProperties.coderDeterministic(
        KeyedPane.KeyedPaneCoder.of(StringUtf8Coder.of(), VarLongCoder.of()), pane, pane);
    Expired<Long> expired = new Expired<>(8L, START, window, START.plus(Duration.millis(20_500)));
    CoderProperties.coderDecodeEncodeEqual(Expired.ExpiredCoder.of(VarLongCoder.of()), expired);
    assertThat(expired.lateBy(), equalTo(Duration.millis(20_500)));
    KeyedExpired<String, Long> keyed = new KeyedExpired<>("a", expired);
    CoderProperties.coderDecodeEncodeEqual(
        KeyedExpired.KeyedExpiredCoder.of(StringUtf8Coder.of(), VarLongCoder.of()), keyed);
    CoderProperties.coderDeterministic(
        KeyedExpired.KeyedExpiredCoder.of(StringUtf8Coder.of(), VarLongCoder.of()), keyed, keyed);
    assertThat(keyed.lateBy(), equalTo(Duration.millis(20_500)));

    // A late event of tidemark's own, from Kafka: its coder is found from its type.
    Event event =
        new Event(
            EventKey.of("01"),
            START,
            0,
            "01,1",
            START.minus(1),
            7,
            new SourcePosition("clicks", 2, 41));
    Expired<Event> late = new Expired<>(event, START, window, START.plus(9000));
    Coder<Expired<Event>> found =
        CoderRegistry.createDefault().getCoder(new TypeDescriptor<Expired<Event>>() {});
    assertThat(found, equalTo(Expired.ExpiredCoder.of(Event.Coder.of())));
    CoderProperties.coderDecodeEncodeEqual(found, late);
    CoderProperties.coderSerializable(found);
  }

  private static TimestampedValue<KV<String, Long>> value(String key, long afterStart, long v) {
    return TimestampedValue.of(KV.of(key, v), START.plus(afterStart));
  }
}
