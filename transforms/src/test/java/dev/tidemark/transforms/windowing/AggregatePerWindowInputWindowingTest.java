package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import dev.tidemark.transforms.testing.PipelineSteps;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The input's own windowing: {@link AggregatePerWindow} re-windows input in other windows into the
 * global window, and decides its panes and expired values as it does for input already there, which
 * it takes as it is, with no step of re-windowing.
 */
@ExtendWith(TestPipelineExtension.class)
class AggregatePerWindowInputWindowingTest {

  private static final Instant BASE_TIME = new Instant(1_600_000_000_000L);
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(Duration.standardSeconds(5));

  /** Two values on time in [0, 5 s), then, after the watermark passed 5 s, one late for it. */
  private static TestStream<KV<String, Long>> onTimeThenLate() {
    return TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
        .advanceWatermarkTo(BASE_TIME)
        .addElements(value(1_000, 1), value(2_000, 2))
        .advanceWatermarkTo(BASE_TIME.plus(30_000))
        .addElements(value(3_000, 4))
        .advanceWatermarkToInfinity();
  }

  private static TimestampedValue<KV<String, Long>> value(long offsetMillis, long amount) {
    return TimestampedValue.of(KV.of("a", amount), BASE_TIME.plus(offsetMillis));
  }

  /** Asserts that {@code in} gives one final pane, a sum of 3, and one expired value, 4. */
  private static void assertOneFinalSumOfThreeAndOneExpiredFour(PCollection<KV<String, Long>> in) {
    AggregatePerWindow<String, Long, Long> sum = AggregatePerWindow.of(WINDOWING, Sum.ofLongs());
    PCollectionTuple decided = in.apply(sum);
    PCollection<String> finals =
        described(
            decided.get(sum.panes()),
            "Finals",
            pane ->
                pane.getValue().getKey().isFinal()
                    ? pane.getKey() + " " + pane.getValue().getValue()
                    : "not final");
    PCollection<String> expired =
        described(
            decided.get(sum.expired()),
            "Expired",
            value -> value.getKey() + " expired " + value.getValue().value());
    PAssert.that(finals).containsInAnyOrder("a 3");
    PAssert.that(expired).containsInAnyOrder("a expired 4");
  }

  private static <T> PCollection<String> described(
      PCollection<T> values, String name, SerializableFunction<T, String> describe) {
    return values.apply(name, MapElements.into(TypeDescriptors.strings()).via(describe));
  }

  @Test
  void inputInTheGlobalWindowIsDecidedAsItIsWithNoStepToReWindowIt(TestPipeline p) {
    assertOneFinalSumOfThreeAndOneExpiredFour(p.apply(onTimeThenLate()));

    assertThat(PipelineSteps.of(p), not(hasItem(endsWith("/IntoGlobalWindow"))));
    p.run();
  }

  @Test
  void inputInFixedWindowsIsReWindowedIntoTheGlobalWindowAndDecidedTheSame(TestPipeline p) {
    assertOneFinalSumOfThreeAndOneExpiredFour(
        p.apply(onTimeThenLate())
            .apply(
                "InWindowsOfItsOwn",
                Window.<KV<String, Long>>into(FixedWindows.of(Duration.standardSeconds(5)))));

    assertThat(PipelineSteps.of(p), hasItem("AggregatePerWindow/IntoGlobalWindow"));
    p.run();
  }
}
