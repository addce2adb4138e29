package dev.tidemark.pipelines.runner;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient.JobFinalizationBehavior;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Flink cluster of an embedded run ({@code --flinkMaster=[local]}), started on a thread of its
 * own as soon as the run's options are known, so that it comes up while Beam builds and translates
 * the pipeline instead of after.
 *
 * <p>Beam's FlinkRunner starts an embedded cluster only once it has translated the pipeline, and
 * each of the two takes seconds, one after the other: on a 2-core machine, building, translating
 * and submitting {@code metrics} took about 3 s on the main thread and the cluster's start about 2
 * s more. This class starts the same cluster as Flink's own {@code LocalExecutor} would, from the
 * same configuration (the run's {@code --flinkConfDir}, with the two settings Beam adds for an
 * embedded run), with one TaskManager and as many slots as that configuration names, or else one
 * per parallel task: Flink sizes its own by the job's largest parallelism, which for a job Beam
 * translates is {@code --parallelism}, or the number of cores (Flink's default for an embedded run,
 * which {@link EmbeddedClusterEnvironment} gives Beam too) when it is not given. It is the job's
 * executor ({@link PipelineExecutor}): a job submitted to it waits for the start, runs on the
 * cluster, and the cluster shuts down when the job ends, as Flink's per-job embedded cluster does.
 * A cluster no job was submitted to shuts down when this is closed.
 *
 * <p>Flink's own {@code LocalExecutor}, {@code PerJobMiniClusterFactory} and Beam's embedded path
 * offer no way to hand them a cluster that is already starting, so this is written here; Beam
 * reaches it through Flink's context environment ({@link EmbeddedClusterEnvironment}).
 */
public final class EmbeddedCluster implements PipelineExecutor, AutoCloseable {

  /** A run that is not embedded: nothing to start, and a job must not come here. */
  static final EmbeddedCluster NONE = new EmbeddedCluster(new Configuration(), null);

  private final Configuration configuration;
  private final CompletableFuture<MiniCluster> started;
  private volatile boolean submitted;

  private EmbeddedCluster(Configuration configuration, CompletableFuture<MiniCluster> started) {
    this.configuration = configuration;
    this.started = started;
  }

  /**
   * Starts the cluster of an embedded run on a thread of its own, and returns at once; for any
   * other run (on a cluster, or on the DirectRunner) returns {@link #NONE}. Call after {@link
   * EmbeddedFlink#configure}, which writes the run's configuration.
   */
  public static EmbeddedCluster startFor(FlinkPipelineOptions options) {
    if (options.getRunner() != FlinkRunner.class || !"[local]".equals(options.getFlinkMaster())) {
      return NONE;
    }
    Configuration configuration = configurationOf(options.getFlinkConfDir());
    int parallelism =
        options.getParallelism() != null && options.getParallelism() > 0
            ? options.getParallelism()
            : StreamExecutionEnvironment.getDefaultLocalParallelism();
    int slots = configuration.getOptional(TaskManagerOptions.NUM_TASK_SLOTS).orElse(parallelism);
    CompletableFuture<MiniCluster> started = new CompletableFuture<>();
    Thread starter =
        new Thread(() -> start(configuration, slots, started), "tidemark-embedded-flink-start");
    starter.setDaemon(true);
    starter.start();
    return new EmbeddedCluster(configuration, started);
  }

  /**
   * The run's Flink configuration, as Beam's FlinkRunner gives an embedded run: the file of {@code
   * confDir} (or Flink's default), with managed memory a fraction of the free heap (Beam measures
   * it after a full garbage collection; here it is read as it is) and Flink's check for leaked
   * class loaders off, unless the file says otherwise.
   */
  private static Configuration configurationOf(String confDir) {
    Configuration configuration =
        confDir == null || confDir.isEmpty()
            ? GlobalConfiguration.loadConfiguration()
            : GlobalConfiguration.loadConfiguration(confDir);
    if (!configuration.containsKey(TaskManagerOptions.MANAGED_MEMORY_SIZE.key())) {
      long free =
          Runtime.getRuntime().maxMemory()
              - Runtime.getRuntime().totalMemory()
              + Runtime.getRuntime().freeMemory();
      long managed = (long) (free * configuration.get(TaskManagerOptions.MANAGED_MEMORY_FRACTION));
      configuration.setString(TaskManagerOptions.MANAGED_MEMORY_SIZE.key(), Long.toString(managed));
    }
    if (!configuration.containsKey("classloader.check-leaked-classloader")) {
      configuration.setBoolean("classloader.check-leaked-classloader", false);
    }
    if (!configuration.contains(RestOptions.BIND_PORT)) {
      configuration.set(RestOptions.BIND_PORT, "0");
    }
    return configuration;
  }

  private static void start(
      Configuration configuration, int slots, CompletableFuture<MiniCluster> started) {
    try {
      started.complete(started(configuration, slots));
    } catch (Throwable e) {
      started.completeExceptionally(e);
    }
  }

  private static MiniCluster started(Configuration configuration, int slots) throws Exception {
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(configuration)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .setRpcServiceSharing(RpcServiceSharing.SHARED)
                .build());
    try {
      cluster.start();
      return cluster;
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
  }

  /** The configuration the cluster was started with; the job's environment starts from it. */
  Configuration configuration() {
    return configuration;
  }

  /**
   * Submits the job once the cluster is up (a cluster that failed to start fails the job with its
   * cause); the cluster shuts down when the job ends.
   */
  @Override
  public CompletableFuture<JobClient> execute(
      Pipeline pipeline, Configuration jobConfiguration, ClassLoader userCodeClassLoader)
      throws Exception {
    if (this == NONE) {
      throw new IllegalStateException("not an embedded run: no cluster was started for it");
    }
    JobGraph job =
        PipelineExecutorUtils.getJobGraph(pipeline, jobConfiguration, userCodeClassLoader);
    MiniCluster cluster = startedCluster();
    submitted = true;
    return cluster
        .submitJob(job)
        .<JobClient>thenApply(
            submission ->
                new MiniClusterJobClient(
                    submission.getJobID(),
                    cluster,
                    userCodeClassLoader,
                    JobFinalizationBehavior.SHUTDOWN_CLUSTER))
        .whenComplete(
            (client, failure) -> {
              if (failure != null) {
                // No job client, so nothing else shuts the cluster down.
                cluster.closeAsync();
              }
            });
  }

  /** The cluster, once started; throws what its start threw. */
  MiniCluster startedCluster() throws Exception {
    try {
      return started.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    }
  }

  /** Shuts the cluster down if no job was submitted to it; a job's end shuts down the others. */
  @Override
  public void close() {
    if (this != NONE && !submitted) {
      started.thenAccept(MiniCluster::closeAsync);
    }
  }
}
