package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/** The three meanings that {@code --idleTimeout} once had, each its own option. */
class EventTimeOptionsTest {

  private static TidemarkOptions options(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(TidemarkOptions.class);
  }

  @Test
  void idleFlushAndPartitionGapFollowTheIdleTimeoutUnlessGiven() {
    // (1) Only --idleTimeout: all three are that long, as before the options were split.
    TidemarkOptions one = options("--idleTimeout=3s");
    EventTimeSettings settings = EventTimeOptions.eventTime(one, "1s");
    EventTimeWindowing windowing = EventTimeOptions.windowing(one, "5s", settings);
    assertThat(settings.idleTimeout(), equalTo(Duration.standardSeconds(3)));
    assertThat(settings.partitionIdleGap(), equalTo(Duration.standardSeconds(3)));
    assertThat(windowing.idleFlush(), equalTo(Duration.standardSeconds(3)));

    // (2) Each given on its own: each its own value.
    TidemarkOptions three =
        options("--idleTimeout=3s", "--idleFlush=20s", "--partitionIdleGap=500ms");
    EventTimeSettings split = EventTimeOptions.eventTime(three, "1s");
    assertThat(split.idleTimeout(), equalTo(Duration.standardSeconds(3)));
    assertThat(split.partitionIdleGap(), equalTo(Duration.millis(500)));
    assertThat(
        EventTimeOptions.windowing(three, "5s", split).idleFlush(),
        equalTo(Duration.standardSeconds(20)));
  }

  @Test
  void emitFinalMakesTheWindowingFinalPaneOnly() {
    TidemarkOptions all = options();
    TidemarkOptions last = options("--emit=final");
    assertThat(
        EventTimeOptions.windowing(all, "5s", EventTimeOptions.eventTime(all, "1s"))
            .finalPaneOnly(),
        equalTo(false));
    assertThat(
        EventTimeOptions.windowing(last, "5s", EventTimeOptions.eventTime(last, "1s"))
            .finalPaneOnly(),
        equalTo(true));
  }
}
