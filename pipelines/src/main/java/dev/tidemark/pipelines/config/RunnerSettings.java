package dev.tidemark.pipelines.config;

import org.apache.beam.runners.flink.FlinkRunner;

/** The runner settings every tidemark pipeline needs, whatever its options say. */
public final class RunnerSettings {

  /**
   * Elements in a bundle on Flink: one, so that each step hands on its rows and its watermark as
   * soon as it has processed an element, never holding them until a bundle ends by time, and the
   * watermark moves on while a step's input never pauses (a source's batches hold up to 512
   * records).
   */
  static final long MAX_BUNDLE_ELEMENTS = 1;

  /**
   * How long a bundle on Flink lasts at the most, in milliseconds: Beam's default. With bundles of
   * one element, only a bundle that a timer starts (a window firing) ends by time, and nothing
   * waits on that: its rows are handed on as they are made. Each step checks its bundle's age on
   * Flink's timer thread every half of this, and each check wakes the step's task, which is idle
   * most of the time in a live job: a longer bound spares that CPU.
   */
  static final long MAX_BUNDLE_MILLIS = 1_000;

  /**
   * Elements in a bundle on Flink when a sink waits for its server once a bundle ({@code
   * Sink#waitsForItsServerEachBundle}): a Kafka sink flushes its records, or commits a transaction,
   * as each bundle ends, so it writes up to this many rows a round trip. The watermark still moves
   * on at least this often while a step's input never pauses.
   */
  static final long SERVER_SINK_BUNDLE_ELEMENTS = 100;

  /**
   * How long a bundle lasts at the most with such a sink, in milliseconds: once a step's input
   * pauses, it holds its last rows and the watermark until its bundle ends by time.
   */
  static final long SERVER_SINK_BUNDLE_MILLIS = 100;

  /**
   * How often, in milliseconds, Beam's Flink source reader emits its watermark: what a window's
   * final row waits for at most once the source has read past the window's bound.
   */
  static final long SOURCE_WATERMARK_MILLIS = 20;

  private RunnerSettings() {}

  /**
   * Makes the run a streaming run. On Flink, keeps Impulse alive when a source starts from it (see
   * {@code ReadSocketLines}), and otherwise lets finished sources shut down, so that a replay ends
   * the job even with checkpointing on (Flink's default then keeps them forever), and does not copy
   * elements between chained operators, while a checkpoint still copies the state it snapshots (so
   * {@code --fasterCopy}, which saves both, is refused), and makes each element a bundle of its own
   * ({@link #MAX_BUNDLE_ELEMENTS}), so that every step hands on its rows and its watermark at once;
   * when {@code sinkWaitsEachBundle}, bundles of up to {@link #SERVER_SINK_BUNDLE_ELEMENTS}
   * elements and {@link #SERVER_SINK_BUNDLE_MILLIS} instead, so that such a sink waits for its
   * server once for many rows. On the DirectRunner, uses {@code --parallelism} as its target. Only
   * sets options: what a run needs outside itself is prepared by the command line ({@code
   * runner.RunPreparation}).
   */
  public static void apply(
      TidemarkOptions options, boolean sourceStartsFromImpulse, boolean sinkWaitsEachBundle) {
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
      // Beam's FlinkRunner hands a step's watermark on only between bundles: a bundle that ends by
      // count hands it on at once, one that ends by time only schedules that, and a step whose
      // input never pauses (the catch-up on a Kafka backlog) has begun its next bundle by then. A
      // bundle also holds a sink's rows until it ends. One element a bundle hands both on at once,
      // and the bundles' time bound, which each step checks on Flink's timer thread at half its
      // value, can then be long: see MAX_BUNDLE_MILLIS and BusyInputWatermarkTest.
      options.setMaxBundleSize(
          sinkWaitsEachBundle ? SERVER_SINK_BUNDLE_ELEMENTS : MAX_BUNDLE_ELEMENTS);
      options.setMaxBundleTimeMills(
          sinkWaitsEachBundle ? SERVER_SINK_BUNDLE_MILLIS : MAX_BUNDLE_MILLIS);
      if (options.getAutoWatermarkInterval() == null) {
        // How often Beam's source reader hands its watermark on. Unset, Beam uses a fifth of the
        // bundle time, and warns at every start that it is unset.
        options.setAutoWatermarkInterval(SOURCE_WATERMARK_MILLIS);
      }
    }
    if (options.getParallelism() != null && options.getParallelism() > 0) {
      options.setTargetParallelism(options.getParallelism());
    }
  }
}
