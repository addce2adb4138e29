package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/**
 * The bundle bounds a run on Flink gets: one element a bundle, so that each step hands on its rows
 * and its watermark at once, with Beam's 1 s bound by time, which each step checks on Flink's timer
 * thread; or 100 elements and 100 ms, so that a bundle's end serves many elements while the
 * watermark still moves on ({@code BusyInputWatermarkTest}; {@code FlinkBundlesTest} which run gets
 * which). The latency and CPU they give are measured by the benchmarks (docs/performance.md); a
 * test of them would be a timed one.
 */
class RunnerSettingsTest {

  @Test
  void makesEachElementABundleOfItsOwnOnFlink() {
    TidemarkOptions options = onFlink();
    RunnerSettings.apply(options, false, RunnerSettings.Bundles.EACH_ELEMENT);
    assertThat(options.getMaxBundleSize(), equalTo(1L));
    assertThat(options.getMaxBundleTimeMills(), equalTo(1_000L));
  }

  @Test
  void sharesBundlesAmongManyElementsByCountAndByTime() {
    TidemarkOptions options = onFlink();
    RunnerSettings.apply(options, false, RunnerSettings.Bundles.SHARED);
    assertThat(options.getMaxBundleSize(), equalTo(100L));
    assertThat(options.getMaxBundleTimeMills(), equalTo(100L));
  }

  @Test
  void setsTheSourceWatermarkIntervalUnlessGiven() {
    TidemarkOptions options = onFlink();
    RunnerSettings.apply(options, false, RunnerSettings.Bundles.EACH_ELEMENT);
    assertThat(options.getAutoWatermarkInterval(), equalTo(20L));

    TidemarkOptions given = onFlink();
    given.setAutoWatermarkInterval(200L);
    RunnerSettings.apply(given, false, RunnerSettings.Bundles.EACH_ELEMENT);
    assertThat(given.getAutoWatermarkInterval(), equalTo(200L));
  }

  /**
   * Beam's FlinkRunner keeps an exactly-once sink's records in one more buffer than the checkpoints
   * that may be in flight; with its default of two, a restored job wrote records numbered after its
   * first checkpoint as that checkpoint completed, and a failure before the next one lost rows
   * ({@code KafkaOnFlinkClusterIT}). Two checkpoints at once give it three.
   */
  @Test
  void givesTheStableInputThreeBuffers() {
    TidemarkOptions options = onFlink();
    RunnerSettings.apply(options, false, RunnerSettings.Bundles.EACH_ELEMENT);
    assertThat(options.getNumConcurrentCheckpoints(), equalTo(2));
  }

  private static TidemarkOptions onFlink() {
    TidemarkOptions options = PipelineOptionsFactory.as(TidemarkOptions.class);
    options.setRunner(FlinkRunner.class);
    return options;
  }
}
