package dev.tidemark.pipelines.config;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.flink.client.ClientUtils;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The Flink cluster of an embedded run from the command line, started on a thread of its own so
 * that it starts while the options are parsed and the pipeline is built and translated, rather than
 * after. Over 10,000 lines {@code metrics} ended about 0.6 s sooner, over 4M lines 1.3 s sooner
 * (medians of alternating runs; issue 9). A run without one, and a run that never {@link #start}s
 * it (on the DirectRunner or a cluster of the user's), runs as Beam's FlinkRunner runs it.
 *
 * <p>When: a command line that asks for nothing but an embedded run with tidemark's configuration
 * and a parallelism starts it {@link #startedEarly early}, before Beam parses the options, which
 * takes half a second on a 2-core machine (0.3 s sooner over 4M lines, 4 alternating runs). That is
 * a guess from the command line's text, so the parsed options decide ({@link #adopts}): they get
 * the cluster if they ask for exactly that run, and otherwise it stops and the run starts the one
 * they ask for. Any other command line starts its cluster once the options are checked ({@link
 * #start}). A command line whose options are wrong has then started a cluster for nothing; it says
 * so at once, and stopping the cluster only delays its exit.
 *
 * <p>How: for {@code --flinkMaster=[local]} Beam's FlinkRunner makes a {@code
 * LocalStreamEnvironment} whose executor starts a MiniCluster when the job is submitted, and it
 * offers no other hook. For {@code [auto]} it asks Flink for the context environment, which is how
 * Flink's own test utilities run jobs on a MiniCluster they started. So {@link #run} gives the
 * runner {@code [auto]} and, on the thread that submits the job and only until it is submitted, a
 * context environment whose executor hands the job to this cluster. The cluster is configured as
 * Beam and Flink configure the per-job one: the run's {@code flink-conf.yaml} ({@link
 * EmbeddedFlink}), Beam's managed-memory fraction of the free heap, no class loader leak check, one
 * slot per parallel instance, and it shuts down when the job ends. Hand-written because Flink's
 * executor for a running MiniCluster is in flink-test-utils, not in what a job ships with.
 */
public final class EmbeddedCluster implements AutoCloseable {

  private static final String TARGET = "tidemark-embedded";

  // Set by start() before its thread starts, on the thread that builds and runs the pipeline;
  // volatile for restAddress(), which a signal's shutdown hook calls.
  private volatile CompletableFuture<MiniCluster> cluster;
  private Configuration configuration;
  private int slots;

  /** The run directory a cluster started early made for itself; null for any other. */
  private @Nullable Path earlyDirectory;

  private EmbeddedCluster() {}

  /** A cluster not started yet: {@link RunnerSettings#prepare} starts it for an embedded run. */
  public static EmbeddedCluster notStarted() {
    return new EmbeddedCluster();
  }

  /**
   * A cluster starting now, before the options are parsed, for an embedded run in a {@link
   * EmbeddedFlink#runDirectory run directory} of its own at {@code parallelism} (null: Flink's
   * default); the options then decide whether it is the run's ({@link #adopts}).
   */
  public static EmbeddedCluster startedEarly(@Nullable Integer parallelism) {
    EmbeddedCluster early = new EmbeddedCluster();
    early.earlyDirectory = EmbeddedFlink.runDirectory(0);
    early.startOn(early.earlyDirectory.toString(), parallelism);
    return early;
  }

  /**
   * Whether this cluster, {@link #startedEarly started early}, is the one {@code options} ask for:
   * an embedded run with neither {@code --flinkConfDir} nor {@code --webUi}, at the parallelism it
   * was started with. If so, its run directory becomes the run's. A cluster started for another run
   * is stopped and its directory deleted: it would run the job with the wrong configuration.
   */
  boolean adopts(TidemarkOptions options) {
    if (earlyDirectory == null) {
      return false;
    }
    if ("[local]".equals(options.getFlinkMaster())
        && options.getFlinkConfDir() == null
        && options.getWebUi() == null
        && slots == slotsFor(options.getParallelism())) {
      options.setFlinkConfDir(earlyDirectory.toString());
      return true;
    }
    close();
    cluster = null;
    earlyDirectory = null;
    return false;
  }

  /**
   * Starts the cluster on a thread of its own, configured from the run's {@code --flinkConfDir} and
   * {@code --parallelism}; called once the options are checked.
   */
  void start(FlinkPipelineOptions options) {
    if (cluster != null) {
      throw new IllegalStateException("the embedded cluster is started already");
    }
    startOn(options.getFlinkConfDir(), options.getParallelism());
  }

  private void startOn(@Nullable String confDir, @Nullable Integer parallelism) {
    slots = slotsFor(parallelism);
    configuration = configuration(confDir);
    cluster = new CompletableFuture<>();
    Thread starter = new Thread(this::startCluster, "tidemark-embedded-cluster");
    starter.setDaemon(true);
    starter.start();
  }

  /**
   * Runs {@code pipeline} on this cluster if it was started, otherwise as its runner would; like
   * {@link Pipeline#run}, returns when the job ends (Beam's attached mode).
   */
  public PipelineResult run(Pipeline pipeline) {
    if (cluster == null) {
      return pipeline.run();
    }
    FlinkPipelineOptions options = pipeline.getOptions().as(FlinkPipelineOptions.class);
    String master = options.getFlinkMaster();
    options.setFlinkMaster("[auto]");
    ContextEnvironment.install(this::environment);
    try {
      return pipeline.run();
    } finally {
      ContextEnvironment.remove();
      options.setFlinkMaster(master);
    }
  }

  /**
   * Where the cluster's REST API answers, {@code host:port}, once it is up; empty before, and if it
   * was never started or failed to start. Without {@code --webUi} Flink chose the port.
   */
  Optional<String> restAddress() {
    CompletableFuture<MiniCluster> started = cluster;
    if (started == null || !started.isDone() || started.isCompletedExceptionally()) {
      return Optional.empty();
    }
    return Optional.ofNullable(started.join().getRestAddress().getNow(null))
        .map(uri -> uri.getHost() + ":" + uri.getPort());
  }

  /**
   * Stops the cluster, if started, and waits until it has stopped; the job stops it too. Then
   * deletes the run directory it made if it {@link #startedEarly started early}.
   */
  @Override
  public void close() {
    if (cluster != null) {
      try {
        cluster.get().closeAsync().get();
      } catch (ExecutionException e) {
        // It did not start, or it stopped with an error: nothing is left running either way.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (earlyDirectory != null) {
      EmbeddedFlink.cleanUp(earlyDirectory);
    }
  }

  /** One slot per parallel instance: {@code --parallelism}, or Flink's default when unset. */
  private static int slotsFor(@Nullable Integer parallelism) {
    return parallelism != null && parallelism > 0
        ? parallelism
        : StreamExecutionEnvironment.getDefaultLocalParallelism();
  }

  private void startCluster() {
    try {
      MiniCluster started =
          new MiniCluster(
              new MiniClusterConfiguration.Builder()
                  .setConfiguration(configuration)
                  .setNumTaskManagers(
                      configuration.get(TaskManagerOptions.MINI_CLUSTER_NUM_TASK_MANAGERS))
                  .setNumSlotsPerTaskManager(slots)
                  .setRpcServiceSharing(RpcServiceSharing.SHARED)
                  .build());
      started.start();
      cluster.complete(started);
    } catch (Exception | Error e) {
      cluster.completeExceptionally(e);
    }
  }

  /** What Beam's FlinkRunner and Flink's LocalExecutor give the per-job cluster of [local]. */
  private static Configuration configuration(String confDir) {
    Configuration configuration =
        confDir == null || confDir.isEmpty()
            ? GlobalConfiguration.loadConfiguration()
            : GlobalConfiguration.loadConfiguration(confDir);
    if (!configuration.contains(TaskManagerOptions.MANAGED_MEMORY_SIZE)) {
      long free = EnvironmentInformation.getSizeOfFreeHeapMemoryWithDefrag();
      float fraction = configuration.get(TaskManagerOptions.MANAGED_MEMORY_FRACTION);
      configuration.setString(
          TaskManagerOptions.MANAGED_MEMORY_SIZE.key(), String.valueOf((long) (free * fraction)));
    }
    if (!configuration.containsKey("classloader.check-leaked-classloader")) {
      configuration.setBoolean("classloader.check-leaked-classloader", false);
    }
    if (!configuration.contains(RestOptions.BIND_PORT)) {
      configuration.set(RestOptions.BIND_PORT, "0");
    }
    return configuration;
  }

  /** The environment Beam's runner gets for [auto]: as [local]'s, with this cluster's executor. */
  private StreamExecutionEnvironment environment() {
    Configuration environment = new Configuration(configuration);
    environment.set(DeploymentOptions.TARGET, TARGET);
    environment.set(DeploymentOptions.ATTACHED, true);
    StreamExecutionEnvironment created =
        new StreamExecutionEnvironment(
            new OneExecutor(this::submit), environment, EmbeddedCluster.class.getClassLoader());
    created.setParallelism(slots);
    return created;
  }

  private CompletableFuture<JobClient> submit(
      org.apache.flink.api.dag.Pipeline streamGraph,
      Configuration jobConfiguration,
      ClassLoader classLoader)
      throws Exception {
    ContextEnvironment.remove();
    JobGraph jobGraph =
        PipelineExecutorUtils.getJobGraph(streamGraph, jobConfiguration, classLoader);
    if (jobGraph.getMaximumParallelism() > slots) {
      throw new IllegalStateException(
          "the embedded cluster has "
              + slots
              + " slots; the job needs "
              + jobGraph.getMaximumParallelism());
    }
    MiniCluster started;
    try {
      started = cluster.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
    // As Flink's PerJobMiniClusterFactory submits to the cluster it starts for a [local] job.
    return started
        .submitJob(jobGraph)
        .thenApplyAsync(
            submitted -> {
              try {
                ClientUtils.waitUntilJobInitializationFinished(
                    () -> started.getJobStatus(submitted.getJobID()).get(),
                    () -> started.requestJobResult(submitted.getJobID()).get(),
                    classLoader);
              } catch (Exception e) {
                throw new CompletionException(e);
              }
              return new MiniClusterJobClient(
                  submitted.getJobID(),
                  started,
                  classLoader,
                  MiniClusterJobClient.JobFinalizationBehavior.SHUTDOWN_CLUSTER);
            });
  }

  /** Flink's executor lookup, answering with one executor whatever the configuration. */
  private record OneExecutor(PipelineExecutor executor)
      implements PipelineExecutorServiceLoader, PipelineExecutorFactory {

    @Override
    public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
      return this;
    }

    @Override
    public Stream<String> getExecutorNames() {
      return Stream.of(TARGET);
    }

    @Override
    public String getName() {
      return TARGET;
    }

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
      return true;
    }

    @Override
    public PipelineExecutor getExecutor(Configuration configuration) {
      return executor;
    }
  }

  /**
   * Flink's context environment, which only a subclass may set. It is set for the JVM and for the
   * current thread; Beam asks for it on the thread that runs the pipeline, and it is removed as
   * soon as the job is submitted, since while it is set no thread may make an explicit local or
   * remote environment.
   */
  private static final class ContextEnvironment extends StreamExecutionEnvironment {

    private ContextEnvironment() {}

    static void install(Supplier<StreamExecutionEnvironment> environment) {
      initializeContextEnvironment(ignoredConfiguration -> environment.get());
    }

    static void remove() {
      resetContextEnvironment();
    }
  }
}
