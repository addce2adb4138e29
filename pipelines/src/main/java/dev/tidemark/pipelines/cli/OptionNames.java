package dev.tidemark.pipelines.cli;

import dev.tidemark.pipelines.config.NearestName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The option names a command takes, checked on the command line's text before Beam parses a word of
 * it, so that every mistake is reported at once, in well under a second, with the name meant when
 * it is a near miss: an option no command has ({@code --sourc}), one another command has but this
 * one would ignore ({@code explain --sink}), and one of Beam's or Flink's that tidemark does not
 * support (Beam would accept every option of every runner on its class path, and ignore most).
 */
final class OptionNames {

  /**
   * Beam's and Flink's options that a command which runs a pipeline takes ({@code --help} lists
   * them), with {@code --fasterCopy}, which tidemark refuses with its reason once it is parsed.
   */
  static final Set<String> RUNNER =
      Set.of(
          "runner",
          "flinkMaster",
          "parallelism",
          "checkpointingInterval",
          "checkpointingMode",
          "numberOfExecutionRetries",
          "executionRetryDelay",
          "flinkConfDir",
          "savepointPath",
          "jobName",
          "fasterCopy");

  /** The runner options that only Flink uses: the DirectRunner would ignore them. */
  static final Set<String> FLINK_ONLY =
      Set.of(
          "flinkMaster",
          "checkpointingInterval",
          "checkpointingMode",
          "numberOfExecutionRetries",
          "executionRetryDelay",
          "flinkConfDir",
          "savepointPath",
          "webUi",
          "detached");

  private final String command;
  private final Set<String> taken;
  private final Map<String, String> unused;

  /**
   * The names {@code command} takes, and those it refuses because it would not use them, each with
   * why.
   */
  OptionNames(String command, Set<String> taken, Map<String, String> unused) {
    this.command = command;
    this.taken = new TreeSet<>(taken);
    this.taken.removeAll(unused.keySet());
    this.unused = unused;
  }

  /**
   * One line for each option of {@code args} that the command does not take, and for each it takes
   * but is given more than once (Beam would say only "expected one element"); empty if none.
   */
  List<String> mistakes(String[] args) {
    List<String> mistakes = new ArrayList<>();
    Map<String, String> values = new HashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--")) {
        continue;
      }
      int equals = arg.indexOf('=');
      String name = arg.substring(2, equals < 0 ? arg.length() : equals);
      String value = equals < 0 ? "" : arg.substring(equals + 1);
      if (taken.contains(name)) {
        String earlier = values.putIfAbsent(name, value);
        if (earlier != null) {
          mistakes.add(
              "--"
                  + name
                  + " is given more than once ('"
                  + earlier
                  + "' and '"
                  + value
                  + "'); give it once");
        }
        continue;
      }
      String why = unused.get(name);
      if (why != null) {
        mistakes.add("--" + name + ": " + command + " " + why + "; leave it out");
        continue;
      }
      String meant = NearestName.among(taken, name);
      mistakes.add(
          "--"
              + name
              + " is not an option of "
              + command
              + (meant == null
                  ? "; see " + command + " --help"
                  : "; did you mean --" + meant + "?"));
    }
    return mistakes;
  }
}
