package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.testing.LateText;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario S2 as told: JSON orders, 3 s out-of-orderness, sum of {@code id} per {@code name} in 5 s
 * windows, 1 min allowed lateness, late records to a side output. A burst, then silence: the last
 * window's sum appears after the idle flush while the watermark is held. DirectRunner only: the
 * FlinkRunner's TestStream has no {@code advanceProcessingTime}; the socket tests show the flush on
 * Flink with a real source that goes quiet.
 */
@ExtendWith(TestPipelineExtension.class)
class OrdersSumScenarioTest {

  private static final Instant BASE_TIME = new Instant(1637800000000L);
  private static final Duration WINDOW = Duration.standardSeconds(5);
  private static final Duration OUT_OF_ORDERNESS = Duration.standardSeconds(3);
  private static final Duration IDLE_FLUSH = Duration.standardSeconds(10);
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(WINDOW)
          .withAllowedLateness(Duration.standardMinutes(1))
          .withIdleFlush(IDLE_FLUSH);

  private static TimestampedValue<String> order(int id, String name, long offsetMillis) {
    Instant amount = BASE_TIME.plus(offsetMillis);
    return TimestampedValue.of(
        "{\"id\":" + id + ",\"name\":\"" + name + "\",\"amount\":" + amount.getMillis() + "}",
        amount);
  }

  @Test
  void lastWindowOfABurstFiresAfterTheIdleFlushWhileTheWatermarkIsHeld(TestPipeline p) {
    TestStream<String> orders =
        TestStream.create(StringUtf8Coder.of())
            .advanceWatermarkTo(BASE_TIME)
            .addElements(
                order(1, "a", 0),
                order(2, "b", 1000),
                order(3, "a", 2500),
                order(4, "a", 6000),
                order(5, "b", 7000),
                order(6, "a", 8000))
            // (1) What the source's bounded out-of-orderness allows: newest - 3 s - 1 ms.
            .advanceWatermarkTo(BASE_TIME.plus(8000).minus(OUT_OF_ORDERNESS).minus(1))
            // (2) Silence: no data, the watermark stays; only processing time passes.
            .advanceProcessingTime(IDLE_FLUSH.plus(Duration.standardSeconds(1)))
            .advanceWatermarkToInfinity();

    PCollectionTuple parsed =
        p.apply(orders)
            .apply(
                "Parse",
                ParseEvents.with(
                    JsonEventFormat.withKey("name").withTime("amount").withValue("id")));
    PCollectionTuple summed =
        parsed.get(ParseEvents.EVENTS).apply("SumPerWindow", CountPerWindow.of(WINDOWING));
    PCollection<String> sums =
        summed
            .get(CountPerWindow.RESULTS)
            .apply(
                "WindowPaneNameAndSum",
                MapElements.into(TypeDescriptors.strings())
                    .via(
                        (WindowResult r) ->
                            (r.pane().windowStart().equals(BASE_TIME) ? "first " : "last ")
                                + r.pane().timing()
                                + " "
                                + r.key()
                                + "="
                                + r.sum()));

    PAssert.that(sums)
        .containsInAnyOrder(
            // (3) Both windows' sums came out while the watermark was still inside them.
            "first EARLY a=4",
            "first EARLY b=2",
            "last EARLY a=10",
            "last EARLY b=5",
            // (4) And again, final, when the watermark reached their end at last.
            "first ON_TIME a=4",
            "first ON_TIME b=2",
            "last ON_TIME a=10",
            "last ON_TIME b=5");
    PAssert.that(summed.get(CountPerWindow.LATE)).empty();
    PAssert.that(parsed.get(ParseEvents.DEAD_LETTER)).empty();
    p.run();
  }

  @Test
  void ordersLaterThanTheMinuteOfLatenessGoToTheSideOutput(TestPipeline p) {
    Instant pastExpiry = BASE_TIME.plus(WINDOW).plus(Duration.standardMinutes(1)).plus(1);
    TestStream<String> orders =
        TestStream.create(StringUtf8Coder.of())
            .advanceWatermarkTo(BASE_TIME)
            .addElements(order(1, "a", 0))
            .advanceWatermarkTo(pastExpiry)
            .addElements(order(2, "a", 1000))
            .advanceWatermarkToInfinity();
    PCollectionTuple parsed =
        p.apply(orders)
            .apply(
                "Parse",
                ParseEvents.with(
                    JsonEventFormat.withKey("name").withTime("amount").withValue("id")));
    PCollection<Expired<Event>> late =
        parsed
            .get(ParseEvents.EVENTS)
            .apply("SumPerWindow", CountPerWindow.of(WINDOWING))
            .get(CountPerWindow.LATE);
    PAssert.that(late.apply("LateText", LateText.each()))
        .containsInAnyOrder(
            LateText.of(
                EventKey.of("a"),
                BASE_TIME.plus(1000),
                new IntervalWindow(BASE_TIME, BASE_TIME.plus(WINDOW)),
                pastExpiry,
                order(2, "a", 1000).getValue()));
    p.run();
  }
}
