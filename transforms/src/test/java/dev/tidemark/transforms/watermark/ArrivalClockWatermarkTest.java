package dev.tidemark.transforms.watermark;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Optional;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** The live rule over recorded arrival times: idleness by the arrival clock, not by event time. */
class ArrivalClockWatermarkTest {

  /** Event times. */
  private static final Instant T = new Instant(1_600_000_000_000L);

  /** Arrival times, long after the event times: a replay of history. */
  private static final Instant NOW = new Instant(1_700_000_000_000L);

  private static final Duration BOUND = Duration.standardSeconds(1);
  private static final Duration IDLE = Duration.standardSeconds(3);

  @Test
  void anEmptyPartitionHoldsTheWatermarkForTheIdleTimeoutThenFollowsTheOthers() {
    ArrivalClockWatermark watermark = ArrivalClockWatermark.of(BOUND, IDLE, List.of("0", "1"));
    // (1) Partition 1 never has a record: for the first 3 s it may still get one.
    record(watermark, NOW, "0", T.plus(5000));
    assertThat(watermark.watermark(), equalTo(Watermarks.MIN));
    assertThat(watermark.holdingBack(), equalTo(Optional.of("1")));
    record(watermark, NOW.plus(2999), "0", T.plus(6000));
    assertThat(watermark.watermark(), equalTo(Watermarks.MIN));
    // (2) 3 s after the reader started, it is empty and follows partition 0.
    watermark.arriveAt(NOW.plus(3000));
    assertThat(watermark.watermark(), equalTo(T.plus(6000 - 1001)));
    assertThat(watermark.holdingBack(), equalTo(Optional.empty()));
  }

  @Test
  void aPartitionBehindInEventTimeHoldsTheWatermarkWhileItsRecordsKeepArriving() {
    // The event-time gap rule of a recording without arrival times would let partition 1 go after
    // 3 s of event time; live, a partition that keeps sending holds the watermark however far
    // behind it is.
    ArrivalClockWatermark watermark = ArrivalClockWatermark.of(BOUND, IDLE, List.of("0", "1"));
    for (int second = 0; second < 20; second++) {
      record(watermark, NOW.plus(second * 1000L), "0", T.plus(10_000 + second * 1000L));
      record(watermark, NOW.plus(second * 1000L + 500), "1", T.plus(second * 1000L));
    }
    assertThat(watermark.watermark(), equalTo(T.plus(19_000 - 1001)));
    assertThat(watermark.holdingBack(), equalTo(Optional.of("1")));
    assertThat(watermark.watermarkOf("0"), equalTo(T.plus(29_000 - 1001)));
  }

  @Test
  void aQuietPartitionLetsGoAfterTheIdleTimeoutOfArrivalTime() {
    ArrivalClockWatermark watermark = ArrivalClockWatermark.of(BOUND, IDLE, List.of("0", "1"));
    record(watermark, NOW, "1", T.plus(2000));
    record(watermark, NOW.plus(100), "0", T.plus(8000));
    assertThat(watermark.watermark(), equalTo(T.plus(2000 - 1001)));
    // (1) Partition 1 sends nothing more; 2.9 s later it still holds.
    record(watermark, NOW.plus(2900), "0", T.plus(9000));
    assertThat(watermark.watermark(), equalTo(T.plus(2000 - 1001)));
    // (2) 3 s after its last record it is idle.
    record(watermark, NOW.plus(3000), "0", T.plus(9500));
    assertThat(watermark.watermark(), equalTo(T.plus(9500 - 1001)));
    // (3) It wakes up behind the watermark, which does not move back: its record is late.
    record(watermark, NOW.plus(4000), "1", T.plus(3000));
    assertThat(watermark.watermark(), equalTo(T.plus(9500 - 1001)));
  }

  @Test
  void whenEveryPartitionIsQuietEventTimeMovesAtThePaceOfTheArrivalClock() {
    ArrivalClockWatermark watermark = ArrivalClockWatermark.of(BOUND, IDLE, List.of("0"));
    record(watermark, NOW, "0", T.plus(5000));
    // A pause of 10 s with no record: the last window before it closes, as live.
    watermark.arriveAt(NOW.plus(10_000));
    assertThat(watermark.watermark(), equalTo(T.plus(5000 - 1001 + 10_000)));
  }

  @Test
  void theArrivalClockNeverGoesBack() {
    // A producer's timestamps may go back; the clock, and so idleness, does not.
    ArrivalClockWatermark watermark = ArrivalClockWatermark.of(BOUND, IDLE, List.of("0", "1"));
    record(watermark, NOW, "1", T.plus(1000));
    record(watermark, NOW.plus(5000), "0", T.plus(8000));
    record(watermark, NOW.plus(1000), "0", T.plus(8500));
    assertThat(watermark.watermark(), equalTo(T.plus(8500 - 1001)));
  }

  private static void record(
      ArrivalClockWatermark watermark, Instant arrival, String partition, Instant eventTime) {
    watermark.arriveAt(arrival);
    watermark.observe(partition, eventTime);
  }
}
