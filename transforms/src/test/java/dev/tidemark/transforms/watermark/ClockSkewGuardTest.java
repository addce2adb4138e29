package dev.tidemark.transforms.watermark;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** The clock-skew rule on its own, with a frozen clock. */
class ClockSkewGuardTest {

  private static final Instant NOW = new Instant(1_800_000_000_000L);
  private static final ClockSkewGuard GUARD =
      ClockSkewGuard.allowingFutureSkew(Duration.standardSeconds(60));

  @Test
  void admitsUpToTheSkewAndNotBeyond() {
    // (1) Behind the clock, at it, and exactly the skew ahead: admitted.
    assertThat(GUARD.admit(NOW.minus(100_000), NOW), equalTo(NOW.minus(100_000)));
    assertThat(GUARD.admit(NOW.plus(60_000), NOW), equalTo(NOW.plus(60_000)));
    // (2) One millisecond beyond: not admitted.
    assertThat(GUARD.admit(NOW.plus(60_001), NOW), nullValue());
    // (3) No event time: nothing to admit.
    assertThat(GUARD.admit(null, NOW), nullValue());
  }

  @Test
  void extremeEventTimesAreClampedThenRefused() {
    assertThat(GUARD.admit(new Instant(Long.MAX_VALUE), NOW), nullValue());
    assertThat(GUARD.admit(new Instant(Long.MIN_VALUE), NOW), nullValue());
  }

  @Test
  void eventTimesBefore1973AreRefusedAsSecondsOrPlaceholders() {
    // (1) The floor itself is admitted; one millisecond before it is not.
    assertThat(
        GUARD.admit(ClockSkewGuard.EARLIEST_EVENT_TIME, NOW),
        equalTo(ClockSkewGuard.EARLIEST_EVENT_TIME));
    assertThat(GUARD.admit(ClockSkewGuard.EARLIEST_EVENT_TIME.minus(1), NOW), nullValue());
    // (2) Seconds are told apart from placeholders, and the reason gives the time they meant.
    assertThat(
        GUARD.reason(new Instant(1580896327L), NOW),
        equalTo(
            "event time 1580896327 is before 1973-03-03T09:46:40.000Z, the earliest accepted: it"
                + " looks like seconds, not milliseconds (2020-02-05T09:52:07.000Z as seconds);"
                + " multiply it by 1000 at the source, or use a field in milliseconds"));
    assertThat(
        GUARD.reason(new Instant(-1), NOW),
        equalTo(
            "event time -1 is before 1973-03-03T09:46:40.000Z, the earliest accepted: a"
                + " placeholder or a broken clock, not an event time"));
  }

  @Test
  void reasonSaysHowFarAheadAndWhatIsAccepted() {
    Instant year2100 = new Instant(4102444800000L);
    assertThat(
        GUARD.reason(year2100, NOW),
        equalTo(
            "event time 4102444800000 is 73 years ahead of the clock ("
                + NOW
                + "); at most 1 min 0 s is accepted (--maxFutureSkew)"));
    assertThat(
        GUARD.reason(NOW.plus(100_000), NOW),
        equalTo(
            "event time "
                + NOW.plus(100_000).getMillis()
                + " is 1 min 40 s ahead of the clock ("
                + NOW
                + "); at most 1 min 0 s is accepted (--maxFutureSkew)"));
  }

  @Test
  void watermarkIsCappedAtTheClockMinusTheBound() {
    Duration bound = Duration.standardSeconds(5);
    assertThat(ClockSkewGuard.capAtClock(NOW.plus(1000), NOW, bound), equalTo(NOW.minus(5000)));
    assertThat(ClockSkewGuard.capAtClock(NOW.minus(9000), NOW, bound), equalTo(NOW.minus(9000)));
    assertThat(ClockSkewGuard.capAtClock(Watermarks.MAX, NOW, bound), equalTo(NOW.minus(5000)));
  }

  @Test
  void negativeSkewIsRejected() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClockSkewGuard.allowingFutureSkew(Duration.millis(-1)));
    assertThat(
        error.getMessage(),
        equalTo("maxFutureSkew: PT-0.001S is not allowed; use zero or more, e.g. 15m"));
  }
}
