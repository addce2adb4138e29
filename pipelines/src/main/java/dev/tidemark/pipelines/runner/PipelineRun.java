package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.TidemarkOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.util.ExceptionUtils;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pipeline to its end and sums it up in one line on stderr, on every runner, however it
 * ends.
 *
 * <ul>
 *   <li>It ends by itself (a recording, a socket on the DirectRunner): the summary comes from the
 *       run's own metrics, exit 0.
 *   <li>It reads a socket with {@code ?reconnect=false} on Flink. When the sender closes, every
 *       window fires and every result reaches its sink, but Flink keeps the job running for the
 *       Impulse that started the socket's reader (Beam's FlinkRunner cannot let it finish: the
 *       reader's pending timers would be dropped). A watcher ({@link EndOfInputWatch}) asks Flink's
 *       REST API once a second whether every operator has seen the end of its input; after that,
 *       once two readings of the counts one refresh of the REST API's metrics apart agree (every
 *       bundle has been written and its metrics reported), it takes the counts and cancels the job:
 *       summary, exit 0.
 *   <li>SIGTERM or Ctrl-C: the job is cancelled (on the DirectRunner through its result, on Flink
 *       through the REST API, embedded or on a cluster) and the summary of what it processed so far
 *       is printed, marked as stopped; the JVM exits with 128 + the signal's number (143 for
 *       SIGTERM, 130 for Ctrl-C). On Flink the signal is taken before the JVM starts shutting down
 *       ({@link StopSignals}), so the embedded cluster is whole while the stop asks it; the counts
 *       are read once two readings one refresh of the REST API apart agree: those of every bundle
 *       that had ended at the stop. A job that ended by itself as the signal came takes its
 *       embedded REST API with it: the summary is then the job's own; otherwise, when the REST API
 *       does not answer, it says the counts are unknown.
 *   <li>On a cluster the client prints the job's id and Web UI page once the cluster lists it, and
 *       with {@code --detached} returns then. Otherwise it reads the job's counters through the
 *       REST API once a second: a cancel from the REST API or Web UI ends the FlinkRunner's client
 *       with an exception and no counts, so the summary, marked as cancelled, has those the REST
 *       API showed last (or says they are unknown), exit 0.
 * </ul>
 */
public final class PipelineRun {

  private static final Logger LOG = LoggerFactory.getLogger(PipelineRun.class);

  /** What {@link #run} returns for a run that failed: the job failed, or could not be submitted. */
  public static final int FAILED = 1;

  /**
   * What {@link #run} returns for a run stopped by a signal, as shells report SIGINT; the JVM,
   * shutting down on the signal, exits with its own status.
   */
  static final int STOPPED = 130;

  /** How long a stop whose REST API did not answer waits for the job's own end. */
  private static final Duration ENDED_WAIT = Duration.ofSeconds(3);

  /**
   * How long a stop looks for the running job: a REST API that answers slowly, on a busy machine,
   * or a job still being scheduled, is asked again rather than taken for no job at all.
   */
  private static final Duration RUNNING_JOB_WAIT = Duration.ofSeconds(10);

  private static final String STOPPED_NOTE = " (stopped by a signal: counts up to the stop)";

  private final TidemarkOptions options;
  private final PrintStream err;
  private final AtomicBoolean summarized = new AtomicBoolean();
  private final EndOfInputWatch endOfInput = new EndOfInputWatch(this::job);

  /**
   * The summary of a Flink job that ended by itself, once its result is in: what a stop says when
   * the signal came as the job ended, and its embedded cluster, REST API and all, went with it.
   */
  private final CompletableFuture<String> endedBySelf = new CompletableFuture<>();

  /** Where the job's Flink REST API answers, if that is known; set before a Flink run starts. */
  private volatile Optional<String> restAddress = Optional.empty();

  /** How the job is found on its REST API, if its address is known; set with it. */
  private volatile Optional<SubmittedJob> submitted = Optional.empty();

  /** What the client says of its job on a cluster; empty for an embedded run. */
  private volatile Optional<ClusterWatch> cluster = Optional.empty();

  PipelineRun(TidemarkOptions options, PrintStream err) {
    this.options = options;
    this.err = err;
  }

  /** Runs {@code pipeline}, built with {@code options}, to its end; returns the exit code. */
  public static int run(Pipeline pipeline, TidemarkOptions options, PrintStream err) {
    PipelineRun run = new PipelineRun(options, err);
    return options.getRunner() == DirectRunner.class
        ? run.onTheDirectRunner(pipeline)
        : run.onFlink(pipeline);
  }

  private int onTheDirectRunner(Pipeline pipeline) {
    options.setBlockOnRun(false);
    return untilTheDirectRunnerEnds(pipeline.run());
  }

  /**
   * Waits for a DirectRunner run to end and sums it up; on a signal, {@link #stopOnTheDirectRunner}
   * runs as a shutdown hook.
   */
  int untilTheDirectRunnerEnds(PipelineResult result) {
    Thread stop = new Thread(() -> stopOnTheDirectRunner(result), "tidemark-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    PipelineResult.State state;
    try {
      state = result.waitUntilFinish();
    } catch (RuntimeException e) {
      if (summarized.get()) {
        // The stop cancelled the run while the DirectRunner was still handing out work: its
        // executor rejects the next bundle, and the run "fails" with that. The stop has said
        // what the run processed; the rejection is the cancel's echo, not a failure.
        LOG.debug("the DirectRunner, cancelled by a signal, ended with", e);
        return STOPPED;
      }
      throw e;
    } finally {
      removeQuietly(stop);
    }
    if (!summarized.compareAndSet(false, true)) {
      return STOPPED;
    }
    err.println(RunSummary.of(result));
    return state == PipelineResult.State.DONE ? 0 : FAILED;
  }

  /** The shutdown hook on the DirectRunner: cancel, then the summary of what it processed. */
  void stopOnTheDirectRunner(PipelineResult result) {
    if (summarized.compareAndSet(false, true)) {
      cancelQuietly(result);
      err.println(RunSummary.of(result) + STOPPED_NOTE);
    }
  }

  private int onFlink(Pipeline pipeline) {
    // Read once, before the run: the run's directory, whose configuration names the port, is
    // deleted as the JVM exits, while a stop may still be asking the REST API.
    restAddress = EmbeddedFlink.restAddress(options);
    // The job name is how a stop and the watchers below find the job. Beam computes a default
    // name on its first read and stores it without a lock: a watcher's first read racing the
    // runner's could leave this run's options with another name than the one the job was given,
    // and a stop then finds "no running job" while the job runs. Bound here, before any thread.
    options.setJobName(options.getJobName());
    boolean onACluster = FlinkMasterCheck.isCluster(options.getFlinkMaster());
    submitted =
        restAddress.map(
            address ->
                onACluster
                    ? SubmittedJob.named(options.getJobName(), address)
                    : SubmittedJob.onItsOwnCluster(options.getJobName(), address));
    cluster =
        onACluster ? submitted.map(job -> new ClusterWatch(job, options, err)) : Optional.empty();
    if (options.getDetached()) {
      options.setAttachedMode(false);
      pipeline.run();
      Optional<FlinkJob> job = cluster.flatMap(ClusterWatch::announceSubmission);
      return job.isPresent()
          ? DetachedStart.awaitRunning(job.get(), options.getJobName(), err)
          : FAILED;
    }
    // SIGTERM and Ctrl-C stop the job before the JVM shuts down (StopSignals); the hook stops it
    // on any other shutdown, and where the JVM keeps those signals to itself.
    cluster.ifPresent(watch -> watch.holdLifeline(options));
    Thread stop = new Thread(this::stopOnFlink, "tidemark-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    StopSignals signals = StopSignals.handledBy(this::stopOnFlink);
    List<Thread> watchers = new ArrayList<>();
    if (options.getShutdownSourcesAfterIdleMs() == Long.MAX_VALUE) {
      // Only a source started from Impulse keeps the job running after the end of its input.
      watchers.add(daemon(endOfInput::cancelOnceDrained, "tidemark-end-of-input"));
    }
    if (cluster.isPresent()) {
      watchers.add(daemon(cluster.get()::announceAndFollow, "tidemark-job"));
    }
    try {
      PipelineResult result = pipeline.run();
      PipelineResult.State state = result.waitUntilFinish();
      String summary = RunSummary.of(result);
      endedBySelf.complete(summary);
      if (summarized.compareAndSet(false, true)) {
        err.println(summary);
      }
      return state == PipelineResult.State.DONE ? 0 : FAILED;
    } catch (RuntimeException e) {
      @Nullable Map<String, Long> counters = endOfInput.drainedCounters();
      if (counters != null && summarized.compareAndSet(false, true)) {
        err.println(RunSummary.of(counters));
        return 0;
      }
      if (summarized.get()) {
        return signals.awaitStop().orElse(STOPPED);
      }
      if (ExceptionUtils.findThrowable(e, JobCancellationException.class).isPresent()) {
        // An embedded cluster is gone with its job: only a cluster's REST API can still answer.
        err.println(
            cluster
                .map(ClusterWatch::cancelledLine)
                .orElse(ClusterWatch.cancelledFromOutside(Map.of())));
        return 0;
      }
      throw e;
    } finally {
      cluster.ifPresent(ClusterWatch::releaseLifeline);
      watchers.forEach(Thread::interrupt);
      signals.close();
      removeQuietly(stop);
    }
  }

  /** Starts {@code task} on a daemon thread named {@code name}: one that never keeps the JVM up. */
  static Thread daemon(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /**
   * The shutdown hook on Flink: the counts so far, once the REST API has those of the bundles that
   * ended last ({@link FlinkJob#settledCounters}), then the cancel and the summary.
   */
  private void stopOnFlink() {
    if (endOfInput.drainedCounters() != null || !summarized.compareAndSet(false, true)) {
      return;
    }
    cluster.ifPresent(ClusterWatch::releaseLifeline);
    Optional<FlinkJob> job;
    try {
      job = awaitRunningJob();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("tidemark: stopped by a signal; counts unknown: interrupted while reading them");
      return;
    }
    if (job.isEmpty()) {
      // No job runs, or none answers: it ended by itself as the signal came, or had not started.
      err.println(
          summaryOfAJobThatEnded()
              .orElse(
                  "tidemark: stopped by a signal; counts unknown: no running job answered on"
                      + " Flink's REST API (it may not have started yet; "
                      + restAddress.map(FlinkJob::jobsListed).orElse("its address is unknown")
                      + ")"));
      return;
    }
    try {
      // One refresh apart: a stopped job still runs until the cancel, so its counters seldom agree,
      // and the readings only put the cancel off.
      Map<String, Long> counters = job.get().settledCounters(1);
      job.get().cancel();
      err.println(RunSummary.of(counters) + STOPPED_NOTE);
    } catch (IOException e) {
      err.println(
          summaryOfAJobThatEnded()
              .orElse(
                  "tidemark: stopped by a signal; counts unknown: Flink's REST API did not answer ("
                      + e
                      + ")"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("tidemark: stopped by a signal; counts unknown: interrupted while reading them");
    }
  }

  /**
   * The summary of the job, if it ended by itself within a few seconds: a REST API that does not
   * answer a stop may be that of an embedded cluster that closed as its job finished.
   */
  private Optional<String> summaryOfAJobThatEnded() {
    try {
      return Optional.of(endedBySelf.get(ENDED_WAIT.toMillis(), TimeUnit.MILLISECONDS));
    } catch (TimeoutException | ExecutionException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * The running job, asked for until {@link #RUNNING_JOB_WAIT} has passed or the job has ended by
   * itself; empty if there is none by then, or no REST address is known.
   */
  private Optional<FlinkJob> awaitRunningJob() throws InterruptedException {
    long deadline = System.nanoTime() + RUNNING_JOB_WAIT.toNanos();
    while (true) {
      Optional<FlinkJob> job = job();
      if (job.isPresent()
          || restAddress.isEmpty()
          || endedBySelf.isDone()
          || System.nanoTime() > deadline) {
        return job;
      }
      Thread.sleep(250);
    }
  }

  private Optional<FlinkJob> job() {
    return submitted.flatMap(SubmittedJob::running);
  }

  private static void cancelQuietly(PipelineResult result) {
    try {
      result.cancel();
    } catch (IOException | RuntimeException e) {
      // It has ended anyway.
    }
  }

  private static void removeQuietly(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: the hook runs, and says so.
    }
  }
}
