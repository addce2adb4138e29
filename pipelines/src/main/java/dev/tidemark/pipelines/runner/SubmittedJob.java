package dev.tidemark.pipelines.runner;

import java.util.Optional;
import java.util.Set;

/**
 * How a run finds the job it submitted, on the REST API of the cluster it runs on: the job with the
 * run's {@code --jobName} that the cluster did not list before the submission. Two runs of one
 * pipeline on one kind of source share a name ({@code --jobName}'s default), and a cluster keeps
 * ended jobs in its list, so the name alone could find another run's job. Two runs that submit jobs
 * of one name at the same moment can still find each other's: Beam's FlinkRunner does not say which
 * job it submitted. docs/production.md tells users to name such jobs apart.
 */
final class SubmittedJob {

  private final String restAddress;
  private final String name;
  private final Set<String> earlier;

  private SubmittedJob(String restAddress, String name, Set<String> earlier) {
    this.restAddress = restAddress;
    this.name = name;
    this.earlier = earlier;
  }

  /**
   * To be called before the submission to a cluster: notes the jobs the REST API at {@code
   * restAddress} lists now.
   */
  static SubmittedJob named(String name, String restAddress) {
    return new SubmittedJob(restAddress, name, FlinkJob.ids(restAddress));
  }

  /**
   * The job of a run on Flink in its own process, whose REST API at {@code restAddress} starts with
   * it: no job was there before, so nothing is asked (a first request would wait on the main thread
   * for the HTTP client to start, to be refused).
   */
  static SubmittedJob onItsOwnCluster(String name, String restAddress) {
    return new SubmittedJob(restAddress, name, Set.of());
  }

  /** The job, whatever its state, once the cluster lists it. */
  Optional<FlinkJob> find() {
    return FlinkJob.newest(restAddress, name, earlier);
  }

  /** The job, if it is running. */
  Optional<FlinkJob> running() {
    return FlinkJob.running(restAddress, name, earlier);
  }
}
