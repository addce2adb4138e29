package dev.tidemark.transforms.join;

import static dev.tidemark.transforms.join.LeftJoinPerWindowTest.ON_TIME_ORDERS_AND_COUPONS;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;

/**
 * The on-time left join on embedded Flink at parallelism 2: every record comes before the watermark
 * moves, so the result does not depend on Flink's TestStream ordering.
 */
class LeftJoinPerWindowOnFlinkTest {

  @Test
  void everyOrderExactlyOnceInTheFinalPane() {
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("FlinkRunner", 2));
    TestStream<String> stream =
        TestStream.create(StringUtf8Coder.of())
            .advanceWatermarkTo(LeftJoinPerWindowTest.BASE_TIME)
            .addElements(
                ON_TIME_ORDERS_AND_COUPONS.get(0),
                ON_TIME_ORDERS_AND_COUPONS
                    .subList(1, ON_TIME_ORDERS_AND_COUPONS.size())
                    .toArray(TimestampedValue[]::new))
            .advanceWatermarkToInfinity();
    Collected finals = new Collected();
    LeftJoinPerWindowTest.join(
            pipeline.apply(stream), EventTimeWindowing.fixed(LeftJoinPerWindowTest.WINDOW))
        .get(LeftJoinPerWindow.JOINED)
        .apply("FinalPanes", Filter.by((JoinedRecord joined) -> joined.pane().isFinal()))
        .apply(
            "IdAndSalesman",
            MapElements.into(TypeDescriptors.strings()).via(LeftJoinPerWindowTest::idAndSalesman))
        .apply(finals.sink());

    assertThat(pipeline.run().waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    assertThat(finals.snapshot(), containsInAnyOrder("o1->u9", "o2->u9", "o3->null", "o4->u3"));
  }
}
