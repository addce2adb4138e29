package dev.tidemark.pipelines.runner;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a Flink job whose input has ended but which Flink keeps running: a socket read with {@code
 * ?reconnect=false} starts from an Impulse that Beam's FlinkRunner cannot let finish. It asks
 * Flink's REST API once a second whether every operator has seen the end of its input; once one
 * has, it reads the job's counters when two readings agree (every bundle written and its metrics
 * reported), keeps them as the run's counts ({@link #drainedCounters}), and cancels the job.
 */
final class EndOfInputWatch {

  private static final Logger LOG = LoggerFactory.getLogger(EndOfInputWatch.class);

  private final Supplier<Optional<FlinkJob>> runningJob;
  private final AtomicReference<@Nullable Map<String, Long>> drained = new AtomicReference<>();

  /** Watches the job that {@code runningJob} finds, if it runs. */
  EndOfInputWatch(Supplier<Optional<FlinkJob>> runningJob) {
    this.runningJob = runningJob;
  }

  /** The job's counts once its input ended, before the cancel; null until then. */
  @Nullable Map<String, Long> drainedCounters() {
    return drained.get();
  }

  /**
   * The watcher: cancels the job once every operator has seen the end of its input. A question the
   * REST API does not answer (a busy JobManager answers late, a job still starting has no vertices
   * to ask about) is asked again a second later: giving up would leave the job running for ever.
   */
  void cancelOnceDrained() {
    boolean warned = false;
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(1_000);
        try {
          if (cancelIfDrained()) {
            return;
          }
        } catch (IOException e) {
          if (!warned) {
            LOG.warn("Flink's REST API did not answer ({}); asking again", e.getMessage());
            warned = true;
          }
        }
      }
    } catch (InterruptedException e) {
      // The run ended first.
    }
  }

  /**
   * Cancels the job if every operator has seen the end of its input, once the counts its last
   * bundles reported have reached the REST API; whether it did.
   */
  private boolean cancelIfDrained() throws IOException, InterruptedException {
    Optional<FlinkJob> job = runningJob.get();
    if (job.isEmpty() || !job.get().hasSeenTheEndOfItsInput()) {
      return false;
    }
    // Two refreshes apart: the API fetches metrics from the TaskManagers when asked, at most once a
    // refresh, and answers with what it had, so two readings one refresh apart can both answer one
    // fetch made before the last bundle ended ("5 records in, 0 results out" at the end of a
    // socket's input, once in CI). The job has ended its work; the wait costs only time.
    drained.set(job.get().settledCounters(2));
    LOG.info("every operator has seen the end of its input; ending the job");
    job.get().cancel();
    return true;
  }
}
