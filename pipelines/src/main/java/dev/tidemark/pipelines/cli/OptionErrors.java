package dev.tidemark.pipelines.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns Beam's option-parsing errors into tidemark's one-line messages. */
final class OptionErrors {

  private static final Pattern UNKNOWN = Pattern.compile("missing a property named '([^']+)'");
  private static final Pattern RUNNER = Pattern.compile("Unknown 'runner' specified '([^']*)'");
  private static final Pattern MISSING =
      Pattern.compile("Missing required value for \\[--([^,]+),");

  private OptionErrors() {}

  static String explain(IllegalArgumentException e) {
    String message = String.valueOf(e.getMessage());
    Matcher unknown = UNKNOWN.matcher(message);
    if (unknown.find()) {
      return "--" + unknown.group(1) + " is not an option; see --help";
    }
    Matcher runner = RUNNER.matcher(message);
    if (runner.find()) {
      return "--runner: '"
          + runner.group(1)
          + "' is not a runner tidemark runs on; use FlinkRunner or DirectRunner";
    }
    Matcher missing = MISSING.matcher(message);
    if (missing.find()) {
      return "--" + missing.group(1) + " is required; see --help";
    }
    return message.lines().findFirst().orElse(message);
  }
}
