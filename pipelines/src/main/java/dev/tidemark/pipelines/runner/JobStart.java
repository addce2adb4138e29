package dev.tidemark.pipelines.runner;

/**
 * Where a job just submitted is ({@link FlinkJob#start}), with why in words, and how many slots its
 * cluster had free when asked.
 */
record JobStart(Phase phase, String why, int freeSlots) {

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
