package dev.tidemark.pipelines.config;

import org.apache.beam.runners.flink.FlinkRunner;

/** The runner settings every tidemark pipeline needs, whatever its options say. */
public final class RunnerSettings {

  /**
   * Elements in a bundle on Flink: the watermark moves on at least this often while a step's input
   * never pauses (a source's batches hold up to 512 records), and a sink still writes, or commits,
   * many rows at once.
   */
  static final long MAX_BUNDLE_ELEMENTS = 100;

  /**
   * How long a bundle on Flink lasts at the most, in milliseconds: what a step holds back, its
   * output and the watermark it hands on, once its input pauses.
   */
  static final long MAX_BUNDLE_MILLIS = 100;

  /**
   * How often, in milliseconds, Beam's Flink source reader emits its watermark: a fifth of {@link
   * #MAX_BUNDLE_MILLIS}, the interval Beam derives when none is set.
   */
  static final long SOURCE_WATERMARK_MILLIS = MAX_BUNDLE_MILLIS / 5;

  private RunnerSettings() {}

  /**
   * Makes the run a streaming run. On Flink, keeps Impulse alive when a source starts from it (see
   * {@code ReadSocketLines}), and otherwise lets finished sources shut down, so that a replay ends
   * the job even with checkpointing on (Flink's default then keeps them forever), and does not copy
   * elements between chained operators, while a checkpoint still copies the state it snapshots (so
   * {@code --fasterCopy}, which saves both, is refused), and bounds bundles to {@link
   * #MAX_BUNDLE_ELEMENTS} so that the watermark moves on while input never pauses, and to {@link
   * #MAX_BUNDLE_MILLIS} so that a step hands on its rows and watermark soon after it pauses. On the
   * DirectRunner, uses {@code --parallelism} as its target. Only sets options: what a run needs
   * outside itself is prepared by the command line ({@code runner.RunPreparation}).
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
      // Without it Flink copies every element (encode, decode) between chained operators, a cost
      // paid once per record and step. It assumes no DoFn changes its input, which Beam forbids and
      // the DirectRunner checks in every test tidemark runs there. Beam's --fasterCopy saves the
      // same copies, but also the state backend's copy-on-write ones: see
      // RunnerSettingsCheckpointTest.
      options.setObjectReuse(true);
      // An exactly-once Kafka sink holds its records until a checkpoint completes; a replay that
      // ends hands it the last ones as it ends, rather than leaving them unwritten.
      options.setEnableStableInputDrain(true);
      // Beam's FlinkRunner hands a step's watermark on only between bundles. A watermark that
      // comes mid-bundle waits; a bundle that ends by count hands it on at once, but one that ends
      // by time only schedules that, and a step whose input never pauses (the catch-up on a Kafka
      // backlog) has begun its next bundle by then. With Beam's 1,000-element bundles no window
      // closed before half a million records were read: every window stayed open, and each gave
      // an EARLY pane, until the backlog was read. See BusyInputWatermarkTest.
      options.setMaxBundleSize(MAX_BUNDLE_ELEMENTS);
      // Once input pauses, a bundle ends by time, and each step holds its last rows and the
      // watermark until then: with Beam's 1 s, a window's final row came out up to a second per
      // step after the watermark passed it. Each step checks its bundle's age on Flink's timer
      // thread at this interval, so a shorter one costs that thread more CPU.
      options.setMaxBundleTimeMills(MAX_BUNDLE_MILLIS);
      if (options.getAutoWatermarkInterval() == null) {
        // How often Beam's source reader hands its watermark on. Unset, Beam uses a fifth of the
        // bundle time, and warns at every start that it is unset: this is the same value, said.
        options.setAutoWatermarkInterval(SOURCE_WATERMARK_MILLIS);
      }
    }
    if (options.getParallelism() != null && options.getParallelism() > 0) {
      options.setTargetParallelism(options.getParallelism());
    }
  }
}
