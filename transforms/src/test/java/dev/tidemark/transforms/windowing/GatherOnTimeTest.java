package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.model.SourceBatch;
import java.util.List;
import java.util.function.Consumer;
import org.apache.beam.sdk.Pipeline.PipelineExecutionException;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What is aggregated before the shuffle ({@link GatherOnTimeFn}), and what the pane step does with
 * a partial aggregate that a wrong watermark bound let through.
 */
@ExtendWith(TestPipelineExtension.class)
class GatherOnTimeTest {

  private static final Instant BASE_TIME = new Instant(1_600_000_000_000L);
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(Duration.standardSeconds(5));

  private static TimestampedValue<KV<String, Long>> value(String key, long offsetMillis) {
    return TimestampedValue.of(KV.of(key, offsetMillis), BASE_TIME.plus(offsetMillis));
  }

  private static SourceBatch<KV<String, Long>> batch(
      long boundOffsetMillis, List<TimestampedValue<KV<String, Long>>> values) {
    return new SourceBatch<>(values, BASE_TIME.plus(boundOffsetMillis));
  }

  private static TestStream.Builder<SourceBatch<KV<String, Long>>> stream() {
    return TestStream.create(
            SourceBatch.SourceBatchCoder.of(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of())))
        .advanceWatermarkTo(BASE_TIME);
  }

  @Test
  void valuesOfWindowsTheBoundKeepsOpenAreAggregatedPerKeyAndTheRestGoAlone(TestPipeline p) {
    // (1) The bound is 5 s: the window [0, 5 s) may be closed downstream, [5 s, 10 s) is not.
    TestStream<SourceBatch<KV<String, Long>>> batches =
        stream()
            .addElements(
                TimestampedValue.of(
                    batch(
                        5_000,
                        List.of(
                            value("a", 1_000),
                            value("a", 6_000),
                            value("b", 6_500),
                            value("a", 7_000),
                            value("a", 11_000),
                            value("a", 9_000))),
                    BASE_TIME.plus(1_000)))
            .advanceWatermarkToInfinity();

    TupleTag<KV<String, Contribution<Long, KV<Long, Long>>>> contributions = new TupleTag<>();
    PCollection<String> gathered =
        p.apply(batches)
            .apply(
                ParDo.of(
                        new GatherOnTimeFn<
                            KV<String, Long>, KV<String, Long>, Void, String, Long, KV<Long, Long>>(
                            WINDOWING,
                            CountAndSumFn.summing(v -> v),
                            StringUtf8Coder.of(),
                            GatherOnTimeFn.everyRecord(),
                            KV::getKey,
                            KV::getValue,
                            contributions,
                            new TupleTag<>()))
                    .withOutputTags(contributions, TupleTagList.empty()))
            .get(contributions)
            .setCoder(
                KvCoder.of(
                    StringUtf8Coder.of(),
                    Contribution.ContributionCoder.of(VarLongCoder.of(), CountAndSumFn.CODER)))
            .apply(
                MapElements.into(TypeDescriptors.strings())
                    .via(
                        contribution ->
                            contribution.getKey()
                                + (contribution.getValue().isPartial()
                                    ? " partial of " + contribution.getValue().records()
                                    : " alone")));

    // (2) a@1 s alone; a@6 s, a@7 s and a@9 s, which comes after a record of another window, as
    // one partial; a@11 s and b@6.5 s as partials of one.
    PAssert.that(gathered)
        .containsInAnyOrder("a alone", "a partial of 3", "b partial of 1", "a partial of 1");
    p.run();
  }

  @Test
  void recordsAreParsedWhereTheyAreGatheredAndWhatTheParserRejectsGoesOutAloneUncounted(
      TestPipeline p) {
    // (1) Raw records "key value" in one batch whose bound keeps every window open; two are bad.
    TestStream<SourceBatch<String>> raw =
        TestStream.create(SourceBatch.SourceBatchCoder.of(StringUtf8Coder.of()))
            .advanceWatermarkTo(BASE_TIME)
            .addElements(
                TimestampedValue.of(
                    new SourceBatch<>(
                        List.of(
                            TimestampedValue.of("a 3", BASE_TIME.plus(1_000)),
                            TimestampedValue.of("bad", BASE_TIME.plus(1_500)),
                            TimestampedValue.of("a 4", BASE_TIME.plus(2_000)),
                            TimestampedValue.of("b 5", BASE_TIME.plus(6_000)),
                            TimestampedValue.of("worse", BASE_TIME.plus(6_500))),
                        BASE_TIME),
                    BASE_TIME.plus(1_000)))
            .advanceWatermarkToInfinity();
    AggregatePerWindow<String, KV<String, Long>, KV<Long, Long>> countAndSum =
        AggregatePerWindow.of(WINDOWING, CountAndSumFn.summing(KV::getValue));
    TupleTag<String> rejected = new TupleTag<>();
    PCollectionTuple out =
        p.apply(raw)
            .apply(
                countAndSum.ofBatchesParsedBy(
                    GatherOnTimeTest::keyAndValue,
                    KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()),
                    KV::getKey,
                    StringUtf8Coder.of(),
                    rejected,
                    StringUtf8Coder.of()));

    // (2) The good records are counted and summed per key and window in its final pane; the bad
    // ones are rejected, once each, and counted nowhere.
    PAssert.that(
            out.get(countAndSum.panes())
                .apply(Filter.by(pane -> pane.getValue().getKey().isFinal()))
                .apply(
                    MapElements.into(TypeDescriptors.strings())
                        .via(
                            pane ->
                                pane.getKey()
                                    + " "
                                    + pane.getValue().getValue().getKey()
                                    + " records, "
                                    + pane.getValue().getValue().getValue())))
        .containsInAnyOrder("a 2 records, 7", "b 1 records, 5");
    PAssert.that(out.get(rejected)).containsInAnyOrder("bad", "worse");
    p.run();
  }

  /** "key value" as a KV at the record's time; anything else rejected as it is. */
  private static @Nullable TimestampedValue<KV<String, Long>> keyAndValue(
      TimestampedValue<String> record, Instant now, Consumer<String> rejected) {
    String[] parts = record.getValue().split(" ");
    if (parts.length != 2) {
      rejected.accept(record.getValue());
      return null;
    }
    return TimestampedValue.of(KV.of(parts[0], Long.parseLong(parts[1])), record.getTimestamp());
  }

  @Test
  void aPartialThatReachesAClosedWindowFailsTheRunInsteadOfLosingItsRecords(TestPipeline p) {
    // (1) The watermark is at 20 s, but the batch claims 0 s: its window [5 s, 10 s) is closed.
    TestStream<SourceBatch<KV<String, Long>>> batches =
        stream()
            .advanceWatermarkTo(BASE_TIME.plus(20_000))
            .addElements(
                TimestampedValue.of(
                    batch(0, List.of(value("a", 6_000), value("a", 7_000))), BASE_TIME.plus(6_000)))
            .advanceWatermarkToInfinity();
    p.apply(batches)
        .apply(AggregatePerWindow.<String, Long, Long>of(WINDOWING, Sum.ofLongs()).ofBatches());

    // (2) The pane step cannot capture the two records one by one: the run fails, loudly.
    PipelineExecutionException failed = assertThrows(PipelineExecutionException.class, p::run);
    assertThat(failed.getMessage(), containsString("2 records aggregated before the shuffle"));
  }
}
