package dev.tidemark.transforms.join;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LeftJoinPerWindow#ofSides} with both sides in batches of raw records, as a batching source
 * reads them and each side's gathering step parses them, on the DirectRunner and on embedded Flink
 * at parallelism 2: the same joined orders as from events, and a line that is no order among the
 * rejected. Every record comes before the watermark moves, so the result does not depend on how
 * Flink's TestStream orders elements and watermarks.
 */
class JoinSidesTest {

  private static final JsonEventFormat ORDERS =
      JsonEventFormat.withKey("orderBatchId").withTime("orderLastModifyTime");
  private static final JsonEventFormat COUPONS =
      JsonEventFormat.withKey("orderBatchId").withTime("lastModifyTime");

  @ParameterizedTest
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void sidesOfBatchesJoinAsSidesOfEventsDo(String runner) {
    List<TimestampedValue<String>> lines =
        new ArrayList<>(LeftJoinPerWindowTest.ON_TIME_ORDERS_AND_COUPONS);
    lines.add(TimestampedValue.of("O|not an order", LeftJoinPerWindowTest.BASE_TIME));
    TestStream<SourceBatch<String>> batches =
        TestStream.create(SourceBatch.SourceBatchCoder.of(StringUtf8Coder.of()))
            .advanceWatermarkTo(LeftJoinPerWindowTest.BASE_TIME)
            .addElements(
                TimestampedValue.of(
                    new SourceBatch<>(List.copyOf(lines), LeftJoinPerWindowTest.BASE_TIME),
                    LeftJoinPerWindowTest.BASE_TIME))
            .advanceWatermarkToInfinity();

    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, 2));
    PCollection<SourceBatch<String>> read = pipeline.apply(batches);
    PCollectionTuple joined =
        pipeline.apply(
            "Join",
            LeftJoinPerWindow.ofSides(
                EventTimeWindowing.fixed(LeftJoinPerWindowTest.WINDOW),
                CopyJsonField.from("receiveUserId").into("orderSalesmanId"),
                JoinSide.batches(side(read, "O|"), ParseEvents.with(ORDERS).inTheGatheringStep()),
                JoinSide.batches(
                    side(read, "C|"), ParseEvents.with(COUPONS).inTheGatheringStep())));
    Collected finals = new Collected();
    joined
        .get(LeftJoinPerWindow.JOINED)
        .apply("FinalPanes", Filter.by((JoinedRecord record) -> record.pane().isFinal()))
        .apply(
            "IdAndSalesman",
            MapElements.into(TypeDescriptors.strings()).via(LeftJoinPerWindowTest::idAndSalesman))
        .apply("CollectJoined", finals.sink());
    Collected rejected = new Collected();
    joined
        .get(LeftJoinPerWindow.REJECTED)
        .apply("Raw", MapElements.into(TypeDescriptors.strings()).via(DeadLetter::raw))
        .apply("CollectRejected", rejected.sink());

    assertThat(pipeline.run().waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    assertThat(finals.snapshot(), containsInAnyOrder("o1->u9", "o2->u9", "o3->null", "o4->u3"));
    assertThat(rejected.snapshot(), containsInAnyOrder("not an order"));
  }

  /** The records of each batch that begin with {@code prefix}, without it: one side's batches. */
  private static PCollection<SourceBatch<String>> side(
      PCollection<SourceBatch<String>> batches, String prefix) {
    return batches
        .apply(
            "Only" + prefix,
            MapElements.into(new TypeDescriptor<SourceBatch<String>>() {})
                .via(
                    batch ->
                        new SourceBatch<>(
                            batch.records().stream()
                                .filter(record -> record.getValue().startsWith(prefix))
                                .map(
                                    record ->
                                        TimestampedValue.of(
                                            record.getValue().substring(prefix.length()),
                                            record.getTimestamp()))
                                .toList(),
                            batch.watermarkBound())))
        .setCoder(SourceBatch.SourceBatchCoder.of(StringUtf8Coder.of()));
  }
}
