package dev.tidemark.transforms.watermark;

import org.apache.beam.sdk.transforms.splittabledofn.TimestampObservingWatermarkEstimator;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.annotations.VisibleForTesting;
import org.joda.time.Instant;

/**
 * A splittable-DoFn {@link TimestampObservingWatermarkEstimator} under {@link IdleAwareWatermark}'s
 * rule, for a source that is one input (a socket).
 *
 * <p>The runner reports every output's timestamp through {@link #observeTimestamp}; {@link
 * #currentWatermark} applies the rule with the wall clock. The estimator treats its input as caught
 * up: a splittable DoFn's watermark is taken when {@code @ProcessElement} returns, and a source
 * returns either because it found nothing more to read (caught up) or because the runner asked it
 * to checkpoint, which only happens while records flow and so never while the input is quiet.
 *
 * <p>Its state ({@link InputProgress}, encoded by {@link InputProgressCoder}) carries the newest
 * event time and the wall-clock time of the last record across checkpoints and restores, so a quiet
 * period is measured from the last record, not from the last resume.
 */
public final class IdleAwareWatermarkEstimator
    implements TimestampObservingWatermarkEstimator<InputProgress> {

  private final IdleAwareWatermark rule;
  private final InputProgress progress;

  /** Continues from {@code state}; the estimator works on a copy of it. */
  public IdleAwareWatermarkEstimator(IdleAwareWatermark rule, InputProgress state) {
    this.rule = rule;
    this.progress = copyOf(state);
  }

  @Override
  public void observeTimestamp(Instant timestamp) {
    observeTimestamp(timestamp, Instant.now());
  }

  @VisibleForTesting
  void observeTimestamp(Instant timestamp, Instant now) {
    progress.observe(Watermarks.clamp(timestamp), now);
  }

  @Override
  public Instant currentWatermark() {
    return currentWatermark(Instant.now());
  }

  @VisibleForTesting
  Instant currentWatermark(Instant now) {
    return rule.advanceLoneInput(progress, now, true);
  }

  @Override
  public InputProgress getState() {
    return copyOf(progress);
  }

  private static InputProgress copyOf(InputProgress state) {
    return InputProgress.restore(state.maxEventTime(), state.quietSince(), state.watermark());
  }
}
