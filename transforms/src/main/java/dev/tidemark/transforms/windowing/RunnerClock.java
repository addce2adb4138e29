package dev.tidemark.transforms.windowing;

import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.beam.sdk.state.Timer;

/**
 * The runner's processing time, read through a processing-time timer, as a clock: a {@code
 * TestStream} may set it by hand, so the pane steps' idle flush follows it in tests.
 */
final class RunnerClock extends Clock {
  private final Timer processingTimeTimer;

  RunnerClock(Timer processingTimeTimer) {
    this.processingTimeTimer = processingTimeTimer;
  }

  @Override
  public long millis() {
    return processingTimeTimer.getCurrentRelativeTime().getMillis();
  }

  @Override
  public java.time.Instant instant() {
    return java.time.Instant.ofEpochMilli(millis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the runner's clock has no zone");
  }
}
