package dev.tidemark.pipelines.config;

import org.apache.beam.runners.flink.FlinkRunner;

/** The runner settings every tidemark pipeline needs, whatever its options say. */
public final class RunnerSettings {

  private RunnerSettings() {}

  /**
   * Makes the run a streaming run. On Flink, keeps Impulse alive when a source starts from it (see
   * {@code ReadSocketLines}), and otherwise lets finished sources shut down, so that a replay ends
   * the job even with checkpointing on (Flink's default then keeps them forever), and does not copy
   * elements between chained operators, while a checkpoint still copies the state it snapshots (so
   * {@code --fasterCopy}, which saves both, is refused). On the DirectRunner, uses {@code
   * --parallelism} as its target. Only sets options: what a run needs outside itself is prepared by
   * the command line ({@code runner.RunPreparation}).
   */
  public static void apply(TidemarkOptions options, boolean sourceStartsFromImpulse) {
    options.setStreaming(true);
    if (options.getRunner() == FlinkRunner.class) {
      if (Boolean.TRUE.equals(options.getFasterCopy())) {
        throw new ConfigurationException(
            "--fasterCopy: it lets a checkpoint take in records that came after its barrier, so"
                + " a restore counts them twice; leave it out: tidemark already passes elements"
                + " between operators without copying them");
      }
      options.setShutdownSourcesAfterIdleMs(sourceStartsFromImpulse ? Long.MAX_VALUE : 0L);
      // Without it Flink copies every element (encode, decode) between chained operators: S5's
      // metrics ran 30 % longer. It assumes no DoFn changes its input, which Beam forbids and
      // the DirectRunner checks in every test tidemark runs there. Beam's --fasterCopy saves the
      // same copies, but also the state backend's copy-on-write ones: see
      // RunnerSettingsCheckpointTest.
      options.setObjectReuse(true);
      // An exactly-once Kafka sink holds its records until a checkpoint completes; a replay that
      // ends hands it the last ones as it ends, rather than leaving them unwritten.
      options.setEnableStableInputDrain(true);
    }
    if (options.getParallelism() != null && options.getParallelism() > 0) {
      options.setTargetParallelism(options.getParallelism());
    }
  }
}
