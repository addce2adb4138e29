package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import org.apache.beam.runners.core.LateDataUtils;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link EventTimeWindowing#expiresAt} and {@link EventTimeWindowing#isExpired} decide which
 * records are late exactly as Beam's GroupByKey drops them ({@link
 * LateDataUtils#garbageCollectionTime}), also next to the end of the global window, where the
 * expiry is capped.
 */
class EventTimeWindowingTest {

  private static final List<Duration> LATENESSES =
      List.of(
          Duration.ZERO,
          Duration.millis(1),
          Duration.standardSeconds(5),
          Duration.standardDays(1),
          Duration.millis(Long.MAX_VALUE / 4));

  @Test
  void windowsExpireWhenBeamsGroupByKeyDropsTheirData() {
    Instant globalEnd = GlobalWindow.INSTANCE.maxTimestamp();
    List<Instant> windowEnds =
        List.of(
            new Instant(1_586_489_570_000L),
            new Instant(0),
            new Instant(-5_000),
            globalEnd.minus(Duration.standardDays(1)),
            globalEnd.minus(Duration.standardSeconds(5)),
            globalEnd.minus(Duration.millis(1)),
            globalEnd,
            BoundedWindow.TIMESTAMP_MAX_VALUE);
    for (Duration lateness : LATENESSES) {
      EventTimeWindowing windowing =
          EventTimeWindowing.fixed(Duration.standardSeconds(5)).withAllowedLateness(lateness);
      for (Instant end : windowEnds) {
        IntervalWindow window = new IntervalWindow(end.minus(Duration.standardSeconds(5)), end);
        Instant beams = LateDataUtils.garbageCollectionTime(window, lateness);
        String where = "window ending " + end + ", lateness " + lateness;

        assertThat(where, windowing.expiresAt(window), equalTo(beams));
        for (long step : new long[] {-1, 0, 1}) {
          Instant watermark = new Instant(beams.getMillis() + step);
          assertThat(
              where + ", watermark " + watermark,
              windowing.isExpired(window, watermark),
              equalTo(beams.isBefore(watermark)));
        }
      }
    }
  }
}
