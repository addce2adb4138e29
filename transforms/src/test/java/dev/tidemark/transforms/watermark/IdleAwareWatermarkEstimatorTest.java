package dev.tidemark.transforms.watermark;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.util.CoderUtils;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** The socket source's estimator without a pipeline, with a frozen clock. */
class IdleAwareWatermarkEstimatorTest {

  private static final IdleAwareWatermark RULE =
      IdleAwareWatermark.emptyHolds(Duration.standardSeconds(1), Duration.standardSeconds(5));
  private static final Instant START = new Instant(1_800_000_000_000L);
  private static final Instant HISTORY = new Instant(1586489566000L);

  @Test
  void socketThatHasSentNothingHoldsAtTheMinimum() {
    IdleAwareWatermarkEstimator estimator =
        new IdleAwareWatermarkEstimator(RULE, InputProgress.startingAt(START));
    // (1) Scenario S1: the job starts before the sender; an hour of silence is not an error and
    // does not move the watermark, so the history the sender replays later is on time.
    assertThat(
        estimator.currentWatermark(START.plus(Duration.standardHours(1))), equalTo(Watermarks.MIN));
    estimator.observeTimestamp(HISTORY, START.plus(Duration.standardHours(1)));
    assertThat(
        estimator.currentWatermark(START.plus(Duration.standardHours(1))),
        equalTo(HISTORY.minus(1001)));
  }

  @Test
  void quietSocketAdvancesAtTheWallClocksPaceFromItsLastLine() {
    IdleAwareWatermarkEstimator estimator =
        new IdleAwareWatermarkEstimator(RULE, InputProgress.startingAt(START));
    estimator.observeTimestamp(HISTORY, START);
    estimator.observeTimestamp(HISTORY.plus(23_000), START.plus(100));
    // (1) Active: bounded out-of-orderness.
    assertThat(estimator.currentWatermark(START.plus(5099)), equalTo(HISTORY.plus(23_000 - 1001)));
    // (2) Quiet for the idle timeout: maxEventTime - 1 s - 1 ms + time since the last line.
    assertThat(
        estimator.currentWatermark(START.plus(5100)), equalTo(HISTORY.plus(23_000 - 1001 + 5000)));
  }

  @Test
  void stateSurvivesACheckpointAndTheQuietPeriodKeepsCounting() throws Exception {
    IdleAwareWatermarkEstimator estimator =
        new IdleAwareWatermarkEstimator(RULE, InputProgress.startingAt(START));
    estimator.observeTimestamp(HISTORY, START);
    estimator.currentWatermark(START.plus(1000));
    // (1) The runner checkpoints: the state goes through the coder and back.
    InputProgress state = estimator.getState();
    CoderProperties.coderDecodeEncodeEqual(InputProgressCoder.of(), state);
    InputProgress decoded =
        CoderUtils.decodeFromByteArray(
            InputProgressCoder.of(), CoderUtils.encodeToByteArray(InputProgressCoder.of(), state));
    // (2) The resumed estimator measures the quiet period from the last line, not from the resume.
    IdleAwareWatermarkEstimator resumed = new IdleAwareWatermarkEstimator(RULE, decoded);
    assertThat(resumed.currentWatermark(START.plus(5000)), equalTo(HISTORY.minus(1001).plus(5000)));
  }

  @Test
  void getStateIsASnapshot() {
    IdleAwareWatermarkEstimator estimator =
        new IdleAwareWatermarkEstimator(RULE, InputProgress.startingAt(START));
    InputProgress before = estimator.getState();
    estimator.observeTimestamp(HISTORY, START);
    assertThat(before.hasEventTime(), equalTo(false));
    assertThat(estimator.getState().maxEventTime(), equalTo(HISTORY));
  }
}
