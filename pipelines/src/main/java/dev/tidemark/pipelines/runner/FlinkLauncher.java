package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.TidemarkOptions;
import java.io.PrintStream;
import org.apache.beam.sdk.Pipeline;

/**
 * A run whose main one of Flink's own launchers called: {@code flink run}, the Web UI's "Submit New
 * Job" (REST {@code /jars/<id>/run}), or an application cluster (application mode, as the Flink
 * Kubernetes Operator runs a job). Each of them calls the jar's main through Flink's {@code
 * PackagedProgram}, on the same thread, after it has set the context environment that {@code
 * StreamExecutionEnvironment.getExecutionEnvironment()} then returns. So main looks for that frame
 * on its own stack: a walk of a few frames, where asking for the environment would load Flink's
 * streaming classes, a tenth of a second, even for a run on the DirectRunner.
 *
 * <p>Inside a launcher the job goes to the launcher's cluster through that environment (Beam's
 * {@code --flinkMaster=[auto]}), and is submitted without waiting for it ({@code
 * attachedMode=false}): a launcher in detached mode, as the Web UI's is, has no result to wait for,
 * and a streaming job has no end to wait for. There is no embedded cluster, no polling of a REST
 * API and no signal handling: the launcher owns the JVM.
 */
public final class FlinkLauncher {

  /** The class through which every one of Flink's launchers calls a jar's main. */
  private static final String PACKAGED_PROGRAM = "org.apache.flink.client.program.PackagedProgram";

  /** Beam's name for "the environment the launcher set". */
  public static final String CONTEXT_MASTER = "[auto]";

  private FlinkLauncher() {}

  /** Whether one of Flink's launchers called this main. */
  public static boolean isRunningThisMain() {
    return StackWalker.getInstance()
        .walk(frames -> frames.anyMatch(frame -> frame.getClassName().equals(PACKAGED_PROGRAM)));
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
