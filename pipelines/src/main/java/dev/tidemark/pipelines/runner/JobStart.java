package dev.tidemark.pipelines.runner;

/**
 * Where a job just submitted is ({@link FlinkJob#start}), with why in words, and whether it is out
 * of slots: some of its tasks wait for a slot while its cluster has none free. Tasks being deployed
 * or initialized have theirs.
 */
record JobStart(Phase phase, String why, boolean outOfSlots) {

  /** How far a job has started. */
  enum Phase {
    /** Every task it needs runs, or it has already finished. */
    RUNNING,
    /** Some of its tasks wait to be deployed. */
    STARTING,
    /** It failed, restarts, or ended without finishing. */
    STOPPED
  }
}
