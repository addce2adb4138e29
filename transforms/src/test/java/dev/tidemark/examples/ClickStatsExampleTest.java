package dev.tidemark.examples;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;

import dev.tidemark.transforms.windowing.AggregatePerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.io.Serializable;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Max;
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
 * The library guide's second example ({@code docs/library.md}): a record type of the user's own,
 * aggregated per key and window with any {@code CombineFn} by {@link AggregatePerWindow}, the late
 * ones captured. Kept as a test so it cannot rot: the code between the GUIDE markers is the
 * guide's, and {@link #theGuideShowsThisCode} fails when the two differ.
 */
@ExtendWith(TestPipelineExtension.class)
class PageDurationsExampleTest {

  // GUIDE-OWN-TYPE-START
  /** A click of your own: the page, when it was clicked, and how long the user stayed. */
  record Click(String page, long clickedAtMillis, long durationMillis) implements Serializable {}

  static final EventTimeWindowing TEN_SECONDS =
      EventTimeWindowing.fixed(Duration.standardSeconds(10))
          .withAllowedLateness(Duration.standardSeconds(30));

  /** The longest stay per page and window: each pane, and the clicks that came too late. */
  static final AggregatePerWindow<String, Long, Long> LONGEST =
      AggregatePerWindow.of(TEN_SECONDS, Max.ofLongs());

  /** {@code clicks} must carry their event time as their timestamp, as a source gives them. */
  static PCollectionTuple longestStays(PCollection<Click> clicks) {
    return clicks
        .apply(
            "PageAndDuration",
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                .via(click -> KV.of(click.page(), click.durationMillis())))
        .apply("Longest", LONGEST);
  }

  // GUIDE-OWN-TYPE-END

  private static final Instant START = new Instant(1_700_000_000_000L);

  @Test
  void theLongestStayPerPageAndWindowAndTheLateClick(TestPipeline pipeline) {
    // GUIDE-OWN-TYPE-TEST-START
    TestStream<Click> clicks =
        TestStream.create(SerializableCoder.of(Click.class))
            .addElements(
                click("/home", 1_000, 300), click("/home", 2_000, 900), click("/cart", 3_000, 50))
            // The window [0 s, 10 s) closes, and expires 30 s later; then a click for it.
            .advanceWatermarkTo(START.plus(Duration.standardSeconds(45)))
            .addElements(click("/home", 4_000, 5_000))
            .advanceWatermarkToInfinity();
    PCollectionTuple stays = longestStays(pipeline.apply(clicks));

    PAssert.that(
            stays
                .get(LONGEST.panes())
                .apply("FinalPanes", Filter.by(pane -> pane.getValue().getKey().isFinal()))
                .apply(
                    "PageAndLongest",
                    MapElements.into(TypeDescriptors.strings())
                        .via(pane -> pane.getKey() + " " + pane.getValue().getValue())))
        .containsInAnyOrder("/home 900", "/cart 50");
    PAssert.that(
            stays
                .get(LONGEST.expired())
                .apply(
                    "LateDurations",
                    MapElements.into(TypeDescriptors.longs())
                        .via((KV<String, Expired<Long>> late) -> late.getValue().value())))
        .containsInAnyOrder(5_000L);
    pipeline.run().waitUntilFinish();
    // GUIDE-OWN-TYPE-TEST-END
  }

  private static TimestampedValue<Click> click(String page, long afterStart, long duration) {
    long clickedAt = START.getMillis() + afterStart;
    return TimestampedValue.of(new Click(page, clickedAt, duration), new Instant(clickedAt));
  }

  @Test
  void theGuideShowsThisCode() throws Exception {
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(
                PageDurationsExampleTest.class, "GUIDE-OWN-TYPE-START", "GUIDE-OWN-TYPE-END")));
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(
                PageDurationsExampleTest.class,
                "GUIDE-OWN-TYPE-TEST-START",
                "GUIDE-OWN-TYPE-TEST-END")));
  }
}
