package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/**
 * The bundle bounds every run on Flink gets: one element a bundle, so that each step hands on its
 * rows and its watermark at once, with Beam's 1 s bound by time, which each step checks on Flink's
 * timer thread; or, with a sink that waits for its server as each bundle ends, 100 elements and 100
 * ms, so that one wait serves many rows while the watermark still moves on ({@code
 * BusyInputWatermarkTest} runs both). The latency and CPU they give are measured by the steady-rate
 * benchmark (docs/performance.md); a test of them would be a timed one.
 */
class RunnerSettingsTest {

  @Test
  void makesEachElementABundleOfItsOwnOnFlink() {
    TidemarkOptions options = onFlink();
    RunnerSettings.apply(options, false, false);
    assertThat(options.getMaxBundleSize(), equalTo(1L));
    assertThat(options.getMaxBundleTimeMills(), equalTo(1_000L));
  }

  @Test
  void boundsBundlesByCountAndByTimeForASinkThatWaitsForItsServerEachBundle() {
    TidemarkOptions options = onFlink();
    RunnerSettings.apply(options, false, true);
    assertThat(options.getMaxBundleSize(), equalTo(100L));
    assertThat(options.getMaxBundleTimeMills(), equalTo(100L));
  }

  @Test
  void setsTheSourceWatermarkIntervalUnlessGiven() {
    TidemarkOptions options = onFlink();
    RunnerSettings.apply(options, false, false);
    assertThat(options.getAutoWatermarkInterval(), equalTo(20L));

    TidemarkOptions given = onFlink();
    given.setAutoWatermarkInterval(200L);
    RunnerSettings.apply(given, false, false);
    assertThat(given.getAutoWatermarkInterval(), equalTo(200L));
  }

  private static TidemarkOptions onFlink() {
    TidemarkOptions options = PipelineOptionsFactory.as(TidemarkOptions.class);
    options.setRunner(FlinkRunner.class);
    return options;
  }
}
