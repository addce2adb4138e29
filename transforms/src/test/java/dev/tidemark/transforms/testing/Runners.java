package dev.tidemark.transforms.testing;

import java.io.IOException;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Pipeline options for the runners every event-time test runs on. */
public final class Runners {

  private static final Logger LOG = LoggerFactory.getLogger(Runners.class);

  private Runners() {}

  /**
   * Options for a streaming run on {@code runner}: "DirectRunner", or "FlinkRunner" on an embedded
   * cluster. {@code run()} returns at once, so the test can feed the source and watch results while
   * the pipeline runs; end it with {@link #cancel}.
   */
  public static PipelineOptions streaming(String runner, int parallelism) {
    switch (runner) {
      case "DirectRunner":
        DirectOptions direct = PipelineOptionsFactory.as(DirectOptions.class);
        direct.setRunner(DirectRunner.class);
        direct.setBlockOnRun(false);
        direct.setTargetParallelism(parallelism);
        return direct;
      case "FlinkRunner":
        FlinkPipelineOptions flink = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
        flink.setRunner(FlinkRunner.class);
        flink.setFlinkMaster("[local]");
        flink.setStreaming(true);
        flink.setParallelism(parallelism);
        flink.setAttachedMode(false);
        // Without checkpointing the runner ends Impulse at once, and the end of that input sends
        // the maximum watermark past every splittable DoFn's hold: an unbounded source after
        // Impulse would make all its data late. Keeping Impulse alive keeps the holds in force.
        flink.setShutdownSourcesAfterIdleMs(Long.MAX_VALUE);
        return flink;
      default:
        throw new IllegalArgumentException("unknown runner " + runner);
    }
  }

  /**
   * Options for a TestStream run on {@code runner} whose {@code run().waitUntilFinish()} returns
   * when the stream has ended: the DirectRunner, or embedded Flink in streaming mode.
   */
  public static PipelineOptions untilTheStreamEnds(String runner, int parallelism) {
    PipelineOptions options = streaming(runner, parallelism);
    if (options instanceof FlinkPipelineOptions) {
      FlinkPipelineOptions flink = (FlinkPipelineOptions) options;
      flink.setAttachedMode(true);
      flink.setShutdownSourcesAfterIdleMs(0L);
    }
    return options;
  }

  /** Cancels a pipeline that may still run; a test calls it in {@code finally}. */
  public static void cancel(PipelineResult result) {
    try {
      if (!result.getState().isTerminal()) {
        result.cancel();
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cancelling the pipeline under test failed", e);
    }
  }
}
