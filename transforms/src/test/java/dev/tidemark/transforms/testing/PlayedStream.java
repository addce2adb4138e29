package dev.tidemark.transforms.testing;

import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * A pipeline, and a {@code TestStream} as its runner plays it, in exactly the stream's order: the
 * DirectRunner's TestStream does; on Flink, {@link ExactOrderStream} does at every parallelism,
 * with steps that hand the watermark on after every element. (Beam's Flink steps hand it on only
 * between bundles: in a bundle of several elements, a watermark that came after some of them would
 * reach the next step after them all, and that step would judge them under the older one.) The run
 * ends when the stream does.
 */
public record PlayedStream<T>(Pipeline pipeline, PTransform<PBegin, PCollection<T>> stream) {

  /** {@code stream} played on {@code runner} at {@code parallelism}. */
  public static <T> PlayedStream<T> of(TestStream<T> stream, String runner, int parallelism) {
    PipelineOptions options = Runners.untilTheStreamEnds(runner, parallelism);
    if (!(options instanceof FlinkPipelineOptions flink)) {
      return new PlayedStream<>(Pipeline.create(options), stream);
    }
    flink.setMaxBundleSize(1L);
    flink.setAutoWatermarkInterval(10L);
    EmbeddedFlinkRest cluster = EmbeddedFlinkRest.onFreePort();
    cluster.applyTo(flink);
    return new PlayedStream<>(Pipeline.create(flink), ExactOrderStream.of(stream, cluster));
  }
}
