package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.TidemarkOptions;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the client of a job on a cluster says about it: where it runs, once the cluster lists it,
 * and the counts of a job cancelled from Flink's REST API or Web UI. Flink's client gets no counts
 * from a cancelled job, so a waiting client reads them through the REST API once a second while the
 * job runs ({@link #announceAndFollow}), and sums up with those the REST API showed last.
 */
final class ClusterWatch {

  private static final String CANCELLED_NOTE =
      " (cancelled from Flink's REST API or Web UI: counts up to the cancel)";

  /** A cluster job's counters as its REST API showed them last; none before it is asked. */
  private final AtomicReference<Map<String, Long>> lastReported = new AtomicReference<>(Map.of());

  private final SubmittedJob submitted;
  private final String master;
  private final String jobName;
  private final PrintStream err;

  /** The line by which the job knows whether this client still waits for it, while it does. */
  private volatile Optional<ClientLifeline> lifeline = Optional.empty();

  ClusterWatch(SubmittedJob submitted, TidemarkOptions options, PrintStream err) {
    this.submitted = submitted;
    this.master = options.getFlinkMaster();
    this.jobName = options.getJobName();
    this.err = err;
  }

  /**
   * The counts of the job just cancelled from outside, as the cluster's REST API shows them now
   * (when it still has the cancelled job's last metrics), or else those it showed last.
   */
  private Map<String, Long> countsAtTheCancel() {
    Map<String, Long> last = lastReported.get();
    try {
      Optional<FlinkJob> job = submitted.find();
      if (job.isPresent()) {
        Map<String, Long> now = job.get().counters();
        long recordsNow = now.getOrDefault(TidemarkMetrics.RECORDS_IN, 0L);
        if (recordsNow >= last.getOrDefault(TidemarkMetrics.RECORDS_IN, 0L)) {
          return now;
        }
      }
    } catch (IOException e) {
      // The last reading stands.
    }
    return last;
  }

  /**
   * The line for a job cancelled from Flink's REST API or Web UI: the FlinkRunner's client ends
   * with an exception and no counts, so they are those the REST API showed last ({@link
   * #announceAndFollow}, {@link #countsAtTheCancel}), and unknown if it showed none.
   */
  static String cancelledFromOutside(Map<String, Long> lastReported) {
    return lastReported.getOrDefault(TidemarkMetrics.RECORDS_IN, 0L) > 0
        ? RunSummary.of(lastReported) + CANCELLED_NOTE
        : "tidemark: the job was cancelled from Flink's REST API or Web UI; its counts are"
            + " unknown: Flink's client gets none from a cancelled job, and its REST API had shown"
            + " none";
  }

  /**
   * Opens the line by which the job, once submitted with {@code options}, knows whether this client
   * still waits for it, and says in its log when it has gone ({@link ClientLifeline}); until {@link
   * #releaseLifeline}. Without a line (the cluster cannot be reached from here) the job runs as
   * well, without saying it.
   */
  void holdLifeline(TidemarkOptions options) {
    lifeline = ClientLifeline.open(master);
    lifeline.ifPresent(line -> options.setClientLifeline(line.address()));
  }

  /** This client ends on purpose: tells the job, which then says nothing of its going. */
  void releaseLifeline() {
    lifeline.ifPresent(ClientLifeline::close);
  }

  /**
   * The watcher of a job on a cluster: once the cluster lists it, says where it runs (and tells the
   * job its id, for the line it writes if this client goes), then reads its counters through the
   * REST API once a second, for the summary of a cancel.
   */
  void announceAndFollow() {
    try {
      Optional<FlinkJob> job = Optional.empty();
      while (job.isEmpty()) {
        Thread.sleep(200);
        job = submitted.find();
      }
      String id = job.get().id();
      lifeline.ifPresent(line -> line.jobIs(id));
      err.println(announcement(job.get()));
      while (true) {
        Thread.sleep(1_000);
        try {
          lastReported.set(job.get().counters());
        } catch (IOException e) {
          // Asked again a second later.
        }
      }
    } catch (InterruptedException e) {
      // The run ended.
    }
  }

  /**
   * Finds the job just submitted detached and says where it runs, on stderr; empty, with why, if
   * the cluster does not list it.
   */
  Optional<FlinkJob> announceSubmission() {
    Optional<FlinkJob> job = submitted.find();
    err.println(
        job.map(this::announcement)
            .orElse(
                "tidemark: submitted to "
                    + master
                    + ", but the cluster lists no job named "
                    + jobName));
    return job;
  }

  private String announcement(FlinkJob job) {
    return "tidemark: submitted job "
        + job.id()
        + " ("
        + jobName
        + ") to "
        + master
        + "; Web UI "
        + job.webUi();
  }

  /** The summary line of a job cancelled from outside, with the counts up to the cancel. */
  String cancelledLine() {
    return cancelledFromOutside(countsAtTheCancel());
  }
}
