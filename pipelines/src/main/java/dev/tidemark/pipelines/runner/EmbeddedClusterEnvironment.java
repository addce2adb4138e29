package dev.tidemark.pipelines.runner;

import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Flink environment that runs Beam's translated job on an {@link EmbeddedCluster}.
 *
 * <p>Beam's FlinkRunner takes the environment Flink gives it for {@code --flinkMaster=[auto]}: the
 * context environment, if one is set, as Flink's own test environment and command-line client set
 * theirs. {@link #runOn} sets this one for the calling thread and, as Flink's API does with it, as
 * the JVM's default until {@link #clear}. A thread's own context comes first, and tidemark asks for
 * {@code [auto]} only on a thread that has just set its own, so runs on other threads of the same
 * JVM (tests run many) never meet another run's cluster. Its parallelism is Flink's default for an
 * embedded run, the number of cores, which {@code --parallelism} overrides, as for Beam's own
 * embedded environment.
 */
final class EmbeddedClusterEnvironment extends StreamExecutionEnvironment {

  private static final String EXECUTOR = "tidemark-embedded";

  private EmbeddedClusterEnvironment(EmbeddedCluster cluster) {
    super(new OneExecutor(cluster), withExecutor(cluster.configuration()), null);
    setParallelism(getDefaultLocalParallelism());
  }

  /** Makes {@code [auto]} mean {@code cluster} for Flink environments made on this thread. */
  static void runOn(EmbeddedCluster cluster) {
    initializeContextEnvironment(configuration -> new EmbeddedClusterEnvironment(cluster));
  }

  /** Undoes {@link #runOn}. */
  static void clear() {
    resetContextEnvironment();
  }

  private static Configuration withExecutor(Configuration cluster) {
    Configuration configuration = new Configuration(cluster);
    configuration.set(DeploymentOptions.TARGET, EXECUTOR);
    configuration.set(DeploymentOptions.ATTACHED, true);
    return configuration;
  }

  /** Hands every job of the environment to the one cluster. */
  private static final class OneExecutor
      implements PipelineExecutorServiceLoader, PipelineExecutorFactory {

    private final EmbeddedCluster cluster;

    OneExecutor(EmbeddedCluster cluster) {
      this.cluster = cluster;
    }

    @Override
    public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
      return this;
    }

    @Override
    public Stream<String> getExecutorNames() {
      return Stream.of(EXECUTOR);
    }

    @Override
    public String getName() {
      return EXECUTOR;
    }

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
      return EXECUTOR.equals(configuration.get(DeploymentOptions.TARGET));
    }

    @Override
    public PipelineExecutor getExecutor(Configuration configuration) {
      return cluster;
    }
  }
}
