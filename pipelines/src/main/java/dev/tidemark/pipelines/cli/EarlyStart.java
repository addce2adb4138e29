package dev.tidemark.pipelines.cli;

import dev.tidemark.pipelines.config.EmbeddedCluster;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads from the command line's text, before Beam parses it, whether it asks for an embedded run
 * with tidemark's own configuration, and at which parallelism, so that the run's cluster can start
 * while Beam parses the options ({@link EmbeddedCluster#startedEarly}). It only has to guess well:
 * the parsed options have the last word ({@code EmbeddedCluster.adopts}).
 */
final class EarlyStart {

  private static final String PARALLELISM = "--parallelism=";

  private EarlyStart() {}

  /**
   * The cluster for {@code args} ({@link ArgumentChecks checked}, with tidemark's defaults):
   * started early if they {@link #askForTidemarksEmbeddedRun ask for an embedded run with
   * tidemark's configuration}, not started otherwise.
   */
  static EmbeddedCluster cluster(String[] args) {
    return askForTidemarksEmbeddedRun(args)
        ? EmbeddedCluster.startedEarly(parallelism(args))
        : EmbeddedCluster.notStarted();
  }

  /**
   * Whether {@code args} name the FlinkRunner on {@code [local]}, and no {@code --flinkConfDir} or
   * {@code --webUi}, whose runs have checks of their own before a cluster may start.
   */
  static boolean askForTidemarksEmbeddedRun(String[] args) {
    for (String arg : args) {
      if ((arg.startsWith("--runner=") && !arg.equals("--runner=FlinkRunner"))
          || (arg.startsWith("--flinkMaster=") && !arg.equals("--flinkMaster=[local]"))
          || arg.startsWith("--flinkConfDir")
          || arg.startsWith("--webUi")) {
        return false;
      }
    }
    return true;
  }

  /** The last {@code --parallelism} in {@code args}, or null when they give none. */
  static @Nullable Integer parallelism(String[] args) {
    Integer parallelism = null;
    for (String arg : args) {
      if (arg.startsWith(PARALLELISM)) {
        parallelism = Integer.valueOf(arg.substring(PARALLELISM.length()).trim());
      }
    }
    return parallelism;
  }
}
