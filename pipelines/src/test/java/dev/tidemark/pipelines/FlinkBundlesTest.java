package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.pipelines.config.TidemarkOptions;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every pipeline built for Flink over a live source makes each element a bundle of its own, so that
 * its steps hand on rows and watermark at once, unless one of its sinks waits for its broker as
 * each bundle ends (a Kafka sink, here for late records only); then, and over a recording, bundles
 * of 100 elements and 100 ms, so that a bundle's end serves many elements. Building opens no
 * connection.
 */
class FlinkBundlesTest {

  private static final String KAFKA_LATE_SINK = "--lateSink=kafka://127.0.0.1:9/late";

  /** A live source for each pipeline: its input topic, or orders for the join. */
  private static final String LIVE_SOURCE = "kafka://127.0.0.1:9/in";

  static Stream<Arguments> pipelines() {
    return Stream.of(
        Arguments.of("metrics", (Function<String[], TidemarkOptions>) FlinkBundlesTest::metrics),
        Arguments.of("count", (Function<String[], TidemarkOptions>) FlinkBundlesTest::count),
        Arguments.of("join", (Function<String[], TidemarkOptions>) FlinkBundlesTest::join));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pipelines")
  void eachElementIsABundleOfItsOwnOverALiveSource(
      String name, Function<String[], TidemarkOptions> build) {
    TidemarkOptions options = build.apply(new String[] {"--runner=FlinkRunner", live(name)});
    assertThat(options.getMaxBundleSize(), equalTo(1L));
    assertThat(options.getMaxBundleTimeMills(), equalTo(1_000L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pipelines")
  void bundlesAreSharedWithAKafkaSink(String name, Function<String[], TidemarkOptions> build) {
    TidemarkOptions options =
        build.apply(new String[] {"--runner=FlinkRunner", live(name), KAFKA_LATE_SINK});
    assertThat(options.getMaxBundleSize(), equalTo(100L));
    assertThat(options.getMaxBundleTimeMills(), equalTo(100L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pipelines")
  void bundlesAreSharedOverARecording(String name, Function<String[], TidemarkOptions> build) {
    // Each pipeline's default source is its bundled sample, a recording.
    TidemarkOptions options = build.apply(new String[] {"--runner=FlinkRunner"});
    assertThat(options.getMaxBundleSize(), equalTo(100L));
    assertThat(options.getMaxBundleTimeMills(), equalTo(100L));
  }

  private static String live(String pipeline) {
    return (pipeline.equals("join") ? "--orders=" : "--source=") + LIVE_SOURCE;
  }

  private static TidemarkOptions metrics(String[] args) {
    MetricsPipeline.Options options =
        PipelineOptionsFactory.fromArgs(args).as(MetricsPipeline.Options.class);
    MetricsPipeline.build(options);
    return options;
  }

  private static TidemarkOptions count(String[] args) {
    CountPipeline.Options options =
        PipelineOptionsFactory.fromArgs(args).as(CountPipeline.Options.class);
    CountPipeline.build(options);
    return options;
  }

  private static TidemarkOptions join(String[] args) {
    JoinPipeline.Options options =
        PipelineOptionsFactory.fromArgs(args).as(JoinPipeline.Options.class);
    JoinPipeline.build(options);
    return options;
  }
}
