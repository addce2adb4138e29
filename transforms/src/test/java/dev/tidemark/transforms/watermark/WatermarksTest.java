package dev.tidemark.transforms.watermark;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class WatermarksTest {

  private static final Duration ONE_SECOND = Duration.standardSeconds(1);

  @Test
  void noDataYetMinusOutOfOrdernessStaysAtTheMinimum() {
    // (1) Scenario S1: Long.MIN_VALUE - 1000 wraps to 9223372036854774808 in plain long arithmetic.
    assertThat(Long.MIN_VALUE - 1000, equalTo(9223372036854774808L));
    // (2) The same step in tidemark saturates at Beam's minimum.
    assertThat(
        Watermarks.behind(Watermarks.ofEpochMillis(Long.MIN_VALUE), ONE_SECOND),
        equalTo(BoundedWindow.TIMESTAMP_MIN_VALUE));
    assertThat(
        Watermarks.minus(BoundedWindow.TIMESTAMP_MIN_VALUE, ONE_SECOND),
        equalTo(BoundedWindow.TIMESTAMP_MIN_VALUE));
  }

  @Test
  void plusSaturatesAtTheMaximum() {
    assertThat(
        Watermarks.plus(BoundedWindow.TIMESTAMP_MAX_VALUE, ONE_SECOND),
        equalTo(BoundedWindow.TIMESTAMP_MAX_VALUE));
    assertThat(
        Watermarks.plus(new Instant(Long.MAX_VALUE - 10), Duration.millis(Long.MAX_VALUE)),
        equalTo(BoundedWindow.TIMESTAMP_MAX_VALUE));
    assertThat(
        Watermarks.minus(new Instant(Long.MIN_VALUE + 10), Duration.millis(Long.MAX_VALUE)),
        equalTo(BoundedWindow.TIMESTAMP_MIN_VALUE));
  }

  @Test
  void longExtremesClampToBeamsRange() {
    assertThat(Watermarks.ofEpochMillis(Long.MAX_VALUE), equalTo(Watermarks.MAX));
    assertThat(Watermarks.ofEpochMillis(Long.MIN_VALUE), equalTo(Watermarks.MIN));
    assertThat(Watermarks.clamp(new Instant(Long.MAX_VALUE)), equalTo(Watermarks.MAX));
  }

  @Test
  void behindIsOneMilliBeforeTheBound() {
    assertThat(
        Watermarks.behind(new Instant(1586489589000L), ONE_SECOND),
        equalTo(new Instant(1586489587999L)));
    assertThat(Watermarks.behind(Watermarks.MAX, ONE_SECOND), equalTo(Watermarks.MAX.minus(1001)));
  }

  @Test
  void ordinaryArithmeticIsExact() {
    Instant t = new Instant(1_637_800_000_000L);
    assertThat(Watermarks.plus(t, ONE_SECOND), equalTo(new Instant(1_637_800_001_000L)));
    assertThat(Watermarks.minus(t, ONE_SECOND), equalTo(new Instant(1_637_799_999_000L)));
    assertThat(Watermarks.latest(t, Watermarks.MIN), equalTo(t));
    assertThat(Watermarks.earliest(t, Watermarks.MIN), equalTo(Watermarks.MIN));
  }
}
