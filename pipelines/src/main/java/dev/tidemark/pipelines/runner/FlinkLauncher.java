package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.TidemarkOptions;
import java.io.PrintStream;
import org.apache.beam.sdk.Pipeline;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A run whose main one of Flink's own launchers called: {@code flink run}, the Web UI's "Submit New
 * Job" (REST {@code /jars/<id>/run}), or an application cluster (application mode, as the Flink
 * Kubernetes Operator runs a job). Each of them sets a context environment before it calls the
 * jar's main, which {@link StreamExecutionEnvironment#getExecutionEnvironment()} then returns; a
 * plain {@code java -jar} gets a local one.
 *
 * <p>Inside a launcher the job goes to the launcher's cluster through that environment (Beam's
 * {@code --flinkMaster=[auto]}), and is submitted without waiting for it ({@code
 * attachedMode=false}): a launcher in detached mode, as the Web UI's is, has no result to wait for,
 * and a streaming job has no end to wait for. There is no embedded cluster, no polling of a REST
 * API and no signal handling: the launcher owns the JVM.
 */
public final class FlinkLauncher {

  /** Beam's name for "the environment the launcher set". */
  public static final String CONTEXT_MASTER = "[auto]";

  private FlinkLauncher() {}

  /** Whether one of Flink's launchers called this main. */
  public static boolean isRunningThisMain() {
    return !(StreamExecutionEnvironment.getExecutionEnvironment()
        instanceof LocalStreamEnvironment);
  }

  /**
   * Submits {@code pipeline} through the launcher's environment and returns once it is submitted;
   * says so on {@code err}, the launcher's log.
   *
   * @throws dev.tidemark.pipelines.config.ConfigurationException when a sink is the cluster's
   *     stdout
   */
  public static void submit(Pipeline pipeline, TidemarkOptions options, PrintStream err) {
    RunPreparation.requireNoStdoutOnACluster(options);
    options.setAttachedMode(false);
    pipeline.run();
    err.println(
        "tidemark: submitted job "
            + options.getJobName()
            + " through Flink's launcher; Flink's Web UI and REST API show it");
  }
}
