package dev.tidemark.pipelines.cli;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --jobName}'s default, {@code tidemark-<pipeline>-<source>}: the name Flink's Web UI and
 * REST API list the job under, and the submission line prints. The source is the kind of each input
 * ({@code kafka}, {@code socket}, {@code file}, {@code sample}, ...), each kind once: {@code
 * tidemark-metrics-kafka}, {@code tidemark-join-kafka-socket}. Beam's own default is a user name, a
 * date and a random number, which no one finds in a list of jobs.
 */
final class DefaultJobName {

  /** A URI's scheme: a letter, then letters, digits, '+', '-' or '.', then ':'. */
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]+):");

  /** The options that name a command's inputs, with their default. */
  private static final List<String> INPUTS = List.of("source", "orders", "coupons");

  private static final String DEFAULT_INPUT = "sample:";

  private DefaultJobName() {}

  /** The default name of {@code command}'s job, run with {@code options}. */
  static String of(String command, List<String> options) {
    Set<String> kinds = new LinkedHashSet<>();
    for (String input : inputsOf(command)) {
      kinds.add(kindOf(valueOf(input, options)));
    }
    return "tidemark-" + command + "-" + String.join("-", kinds);
  }

  private static List<String> inputsOf(String command) {
    return command.equals("join") ? INPUTS.subList(1, 3) : INPUTS.subList(0, 1);
  }

  private static String valueOf(String input, List<String> options) {
    String prefix = "--" + input + "=";
    return options.stream()
        .filter(option -> option.startsWith(prefix))
        .findFirst()
        .map(option -> option.substring(prefix.length()))
        .orElse(DEFAULT_INPUT);
  }

  /** The scheme of a source URI, or {@code file} for a path. */
  private static String kindOf(String source) {
    Matcher scheme = SCHEME.matcher(source);
    return scheme.find() ? scheme.group(1).toLowerCase(Locale.ROOT) : "file";
  }
}
