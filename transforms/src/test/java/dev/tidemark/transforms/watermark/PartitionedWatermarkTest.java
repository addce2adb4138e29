package dev.tidemark.transforms.watermark;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.Optional;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** The replay's watermark over partitions, line by line. */
class PartitionedWatermarkTest {

  private static final Instant T = new Instant(1_600_000_000_000L);
  private static final Duration BOUND = Duration.standardSeconds(1);
  private static final Duration IDLE = Duration.standardSeconds(10);

  @Test
  void onePartitionIsTheBoundedOutOfOrdernessWatermark() {
    PartitionedWatermark watermark = PartitionedWatermark.of(BOUND, IDLE);
    assertThat(watermark.watermark(), equalTo(Watermarks.MIN));
    watermark.observe("", T.plus(5000));
    watermark.observe("", T.plus(3000));
    assertThat(watermark.watermark(), equalTo(T.plus(5000 - 1000 - 1)));
    assertThat(watermark.holdingBack(), equalTo(Optional.empty()));
  }

  @Test
  void theLowestPartitionHoldsTheWatermarkUntilItIsQuiet() {
    PartitionedWatermark watermark = PartitionedWatermark.of(BOUND, IDLE);
    watermark.observe("1", T.plus(12_000));
    watermark.observe("0", T.plus(20_000));
    // (1) Partition 1 is 8 s behind, within the idle timeout: it holds the watermark.
    assertThat(watermark.watermark(), equalTo(T.plus(12_000 - 1001)));
    assertThat(watermark.holdingBack(), equalTo(Optional.of("1")));
    assertThat(watermark.watermarkOf("0"), equalTo(T.plus(20_000 - 1001)));
    // (2) Partition 0 moves on: partition 1 is now more than 10 s behind, quiet, and lets go.
    watermark.observe("0", T.plus(22_001));
    assertThat(watermark.watermark(), equalTo(T.plus(22_001 - 1001)));
    assertThat(watermark.holdingBack(), equalTo(Optional.empty()));
    // (3) It wakes up behind the watermark: the watermark does not move back.
    watermark.observe("1", T.plus(13_000));
    assertThat(watermark.watermark(), equalTo(T.plus(22_001 - 1001)));
  }

  @Test
  void aPartitionFirstSeenBehindTheWatermarkDoesNotPullItBack() {
    // An empty partition held nothing back; when its first record comes, it is late, as live.
    PartitionedWatermark watermark = PartitionedWatermark.of(BOUND, IDLE);
    watermark.observe("0", T.plus(20_000));
    watermark.observe("1", T.plus(12_000));
    assertThat(watermark.watermark(), equalTo(T.plus(20_000 - 1001)));
    assertThat(watermark.holdingBack(), equalTo(Optional.empty()));
  }

  @Test
  void aPartitionNotSeenYetHoldsNothingBack() {
    PartitionedWatermark watermark = PartitionedWatermark.of(BOUND, IDLE);
    for (int i = 0; i < 100; i++) {
      watermark.observe("7", T.plus(i * 1000L));
    }
    assertThat(watermark.watermark(), equalTo(T.plus(99_000 - 1001)));
    assertThat(watermark.partitionWatermarks().keySet().toString(), equalTo("[7]"));
    assertThat(watermark.watermarkOf("3"), equalTo(Watermarks.MIN));
  }
}
