package dev.tidemark.pipelines.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;

/**
 * What a detached submission waits for before it returns: its job running, every task deployed.
 * Flink accepts a job it cannot run (too few free slots, a failure at start that it then restarts
 * from), and a client that returned at once would end with exit 0 while the job sits in {@code
 * RESTARTING}. So the client asks the REST API every half second, and ends with exit 1 and one line
 * saying why when the job fails or restarts, when no slot has been free for {@link #NO_FREE_SLOT}
 * while tasks wait for one (not while tasks that have theirs are deployed, which on a busy cluster
 * can take longer), or when it has not started within {@link #START_WAIT}. It does not cancel the
 * job: a cluster may yet free slots, and the line says how to cancel it.
 */
final class DetachedStart {

  /** How long a job may wait for a slot while the cluster has none free. */
  static final Duration NO_FREE_SLOT = Duration.ofSeconds(10);

  /** How long a job may take to start at all. */
  static final Duration START_WAIT = Duration.ofMinutes(2);

  private static final Duration BETWEEN_QUESTIONS = Duration.ofMillis(500);

  private DetachedStart() {}

  /**
   * Waits until {@code job} runs; the exit code: 0 when it does, {@link PipelineRun#FAILED}, after
   * one line on {@code err}, when it does not.
   */
  static int awaitRunning(FlinkJob job, String name, PrintStream err) {
    long deadline = System.nanoTime() + START_WAIT.toNanos();
    long noFreeSlotSince = 0;
    JobStart start = new JobStart(JobStart.Phase.STARTING, "the REST API did not answer", false);
    while (System.nanoTime() < deadline) {
      try {
        start = job.start();
      } catch (IOException e) {
        start = new JobStart(JobStart.Phase.STARTING, "the REST API did not answer: " + e, false);
      }
      if (start.phase() == JobStart.Phase.RUNNING) {
        return 0;
      }
      if (start.phase() == JobStart.Phase.STOPPED) {
        return notRunning(job, name, start.why(), err);
      }
      if (!start.outOfSlots()) {
        noFreeSlotSince = 0;
      } else if (noFreeSlotSince == 0) {
        noFreeSlotSince = System.nanoTime();
      } else if (System.nanoTime() - noFreeSlotSince > NO_FREE_SLOT.toNanos()) {
        return notRunning(job, name, start.why(), err);
      }
      try {
        Thread.sleep(BETWEEN_QUESTIONS.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return notRunning(job, name, "interrupted while waiting for it to start", err);
      }
    }
    return notRunning(job, name, start.why() + ", after " + START_WAIT.toSeconds() + " s", err);
  }

  private static int notRunning(FlinkJob job, String name, String why, PrintStream err) {
    err.println(
        "tidemark: job "
            + job.id()
            + " ("
            + name
            + ") is not running: "
            + why
            + "; it stays on the cluster until you cancel it (Web UI, or PATCH /jobs/"
            + job.id()
            + "?mode=cancel)");
    return PipelineRun.FAILED;
  }
}
