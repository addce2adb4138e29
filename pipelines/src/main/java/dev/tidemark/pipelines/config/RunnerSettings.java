package dev.tidemark.pipelines.config;

import org.apache.beam.runners.flink.FlinkRunner;

/** The runner settings every tidemark pipeline needs, whatever its options say. */
public final class RunnerSettings {

  /**
   * How a run's bundles are bounded on Flink. Beam's FlinkRunner hands a step's watermark on only
   * between bundles, and a bundle holds a sink's rows until it ends; each step also checks its
   * bundle's age on Flink's timer thread every half of the bound by time, and each check wakes the
   * step's task.
   */
  public enum Bundles {
    /**
     * One element a bundle, with Beam's 1 s bound by time: each step hands on its rows and its
     * watermark as soon as it has processed an element, so a window's final row reaches the sink as
     * soon as the watermark passes the window. Only a bundle that a timer starts (a window firing)
     * ends by time, and nothing waits on that, so the bound is long and the checks are rare: in a
     * live job, whose tasks are idle most of the time, they are what a short bound costs.
     */
    EACH_ELEMENT(1, 1_000),
    /**
     * Up to 100 elements and 100 ms: the end of a bundle costs Beam's runner a pass over the task's
     * metrics, and a Kafka sink a flush or a commit, so a replay of a recording, whose steps pass
     * many elements a second and whose rows come as its windows expire, and a run with a sink that
     * waits for its server as each bundle ends, share it among many elements. The watermark still
     * moves on at least every 100 elements while a step's input never pauses; once it pauses, a
     * step holds its last rows and the watermark until its bundle ends by time.
     */
    SHARED(100, 100);

    private final long maxElements;
    private final long maxMillis;

    Bundles(long maxElements, long maxMillis) {
      this.maxElements = maxElements;
      this.maxMillis = maxMillis;
    }

    /** The most elements in a bundle ({@code --maxBundleSize}). */
    public long maxElements() {
      return maxElements;
    }

    /** The longest a bundle lasts, in milliseconds ({@code --maxBundleTimeMills}). */
    public long maxMillis() {
      return maxMillis;
    }
  }

  /**
   * How often, in milliseconds, Beam's Flink source reader emits its watermark: what a window's
   * final row waits for at most once the source has read past the window's bound.
   */
  static final long SOURCE_WATERMARK_MILLIS = 20;

  /**
   * How many checkpoints Flink may run at once, which Beam's FlinkRunner also uses to size a
   * stable-input step's buffers: one more than this, used in turn. After a restore, the restored
   * checkpoint's buffer stays unacknowledged until the restored job's first checkpoint completes;
   * with Beam's default of one (two buffers), the turn comes back to it at that first checkpoint's
   * barrier. Two give three buffers; Flink then runs a second checkpoint beside the first only when
   * the first takes longer than the interval.
   */
  static final int CHECKPOINTS_AT_ONCE = 2;

  private RunnerSettings() {}

  /**
   * Makes the run a streaming run. On Flink, keeps Impulse alive when a source starts from it (see
   * {@code ReadSocketLines}), and otherwise lets finished sources shut down, so that a replay ends
   * the job even with checkpointing on (Flink's default then keeps them forever), gives an
   * exactly-once sink's stable input enough buffers to survive a failure soon after a restore
   * ({@link #CHECKPOINTS_AT_ONCE}), and does not copy elements between chained operators, while a
   * checkpoint still copies the state it snapshots (so {@code --fasterCopy}, which saves both, is
   * refused), and bounds bundles as {@code bundles} says. On the DirectRunner, uses {@code
   * --parallelism} as its target. Only sets options: what a run needs outside itself is prepared by
   * the command line ({@code runner.RunPreparation}).
   */
  public static void apply(
      TidemarkOptions options, boolean sourceStartsFromImpulse, Bundles bundles) {
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
      // With Beam's two buffers, the records a restored job numbers after its first checkpoint's
      // barrier join the restored checkpoint's unacknowledged buffer, and are written when that
      // first checkpoint completes: a failure before the next one then lets the job number other
      // records the same, which the sink skips as written (docs/upstream-findings.md). A third
      // buffer leaves the restored one time to be emptied.
      options.setNumConcurrentCheckpoints(CHECKPOINTS_AT_ONCE);
      // Beam's FlinkRunner hands a step's watermark on only between bundles: a bundle that ends by
      // count hands it on at once, one that ends by time only schedules that, and a step whose
      // input never pauses (the catch-up on a Kafka backlog) has begun its next bundle by then.
      // With Beam's 1,000 elements windows stayed open until a backlog was read: see
      // BusyInputWatermarkTest.
      options.setMaxBundleSize(bundles.maxElements());
      options.setMaxBundleTimeMills(bundles.maxMillis());
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
