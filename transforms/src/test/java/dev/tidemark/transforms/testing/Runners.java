package dev.tidemark.transforms.testing;

import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** Pipeline options for the runners every event-time test runs on. */
public final class Runners {

  private Runners() {}

  /**
   * Options for a streaming run on {@code runner}: "DirectRunner", or "FlinkRunner" on an embedded
   * cluster. {@code run()} blocks until the pipeline ends; see {@link InBackground}.
   */
  public static PipelineOptions streaming(String runner, int parallelism) {
    switch (runner) {
      case "DirectRunner":
        DirectOptions direct = PipelineOptionsFactory.as(DirectOptions.class);
        direct.setRunner(DirectRunner.class);
        direct.setTargetParallelism(parallelism);
        return direct;
      case "FlinkRunner":
        FlinkPipelineOptions flink = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
        flink.setRunner(FlinkRunner.class);
        flink.setFlinkMaster("[local]");
        flink.setStreaming(true);
        flink.setParallelism(parallelism);
        return flink;
      default:
        throw new IllegalArgumentException("unknown runner " + runner);
    }
  }
}
