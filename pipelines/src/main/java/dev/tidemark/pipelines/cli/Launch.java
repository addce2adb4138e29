package dev.tidemark.pipelines.cli;

import dev.tidemark.pipelines.runner.FlinkLauncher;
import java.util.Map;

/** Who called tidemark's main, and so who owns the JVM and where the job runs. */
enum Launch {

  /**
   * {@code java -jar tidemark.jar}: tidemark's own client runs the job, on embedded Flink or on the
   * cluster at {@code --flinkMaster}, waits for it, sums it up and exits.
   */
  CLIENT(Map.of()),

  /**
   * One of Flink's own launchers ({@link FlinkLauncher}): the job goes to the launcher's cluster,
   * and main returns once it is submitted, or throws; it never exits the JVM, which may be a
   * JobManager's.
   */
  FLINK(
      Map.of(
          "runner", "run by Flink's launcher runs on Flink",
          "flinkMaster", "run by Flink's launcher goes to the launcher's cluster",
          "flinkConfDir", "run by Flink's launcher takes its cluster's configuration",
          "detached",
              "run by Flink's launcher is submitted without waiting for it, whatever the launcher's"
                  + " mode",
          "webUi", "run by Flink's launcher shows in its cluster's own Web UI",
          "savepointPath",
              "run by Flink's launcher starts from the launcher's savepoint (flink run -s PATH, or"
                  + " savepointPath in the REST API's run request)"));

  private final Map<String, String> refusedOptions;

  Launch(Map<String, String> refusedOptions) {
    this.refusedOptions = refusedOptions;
  }

  /** The runner options that a pipeline run so would not use, each with why. */
  Map<String, String> refusedOptions() {
    return refusedOptions;
  }

  /** How Beam's FlinkRunner reaches the cluster by default: embedded, or the launcher's. */
  String defaultFlinkMaster() {
    return this == FLINK ? FlinkLauncher.CONTEXT_MASTER : "[local]";
  }
}
