package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/**
 * The bundle bounds every run on Flink gets: by count, so that the watermark moves on while input
 * never pauses ({@code BusyInputWatermarkTest} shows why), and by time, so that a step hands on its
 * last rows and its watermark soon after its input pauses (the README's "How it works" has the
 * measurements; a test of the latency itself would be a timed one).
 */
class RunnerSettingsTest {

  @Test
  void boundsFlinkBundlesByCountAndByTime() {
    TidemarkOptions options = PipelineOptionsFactory.as(TidemarkOptions.class);
    options.setRunner(FlinkRunner.class);
    RunnerSettings.apply(options, false);
    assertThat(options.getMaxBundleSize(), equalTo(RunnerSettings.MAX_BUNDLE_ELEMENTS));
    assertThat(options.getMaxBundleTimeMills(), equalTo(RunnerSettings.MAX_BUNDLE_MILLIS));
    assertThat(options.getMaxBundleTimeMills(), equalTo(100L));
  }

  @Test
  void setsTheSourceWatermarkIntervalBeamWouldDeriveUnlessGiven() {
    TidemarkOptions options = PipelineOptionsFactory.as(TidemarkOptions.class);
    options.setRunner(FlinkRunner.class);
    RunnerSettings.apply(options, false);
    // Beam's reader derives max(maxBundleTimeMills / 5, 10) ms when it is unset, and warns.
    assertThat(
        options.getAutoWatermarkInterval(),
        equalTo(Math.max(options.getMaxBundleTimeMills() / 5, 10L)));

    TidemarkOptions given = PipelineOptionsFactory.as(TidemarkOptions.class);
    given.setRunner(FlinkRunner.class);
    given.setAutoWatermarkInterval(200L);
    RunnerSettings.apply(given, false);
    assertThat(given.getAutoWatermarkInterval(), equalTo(200L));
  }
}
