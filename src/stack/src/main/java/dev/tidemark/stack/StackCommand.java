package dev.tidemark.stack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A {@code stack} command line, checked before anything runs: the command, its words, and its
 * {@code --name=value} options, each one the command takes. Every command takes {@code --dir}, the
 * stack's directory: for {@code start}, the default one without it; for the others, the one stack
 * that is running ({@link RunningStacks}). {@code flink} passes every word after it to Flink's own
 * command line, options among them, so its {@code --dir} comes before it: {@code stack --dir=DIR
 * flink run JAR ...}.
 *
 * @param name the command: {@code start}, {@code stop}, {@code topic}, {@code produce}, {@code
 *     consume}, {@code psql} or {@code flink}
 * @param words the words after the command, as many as it takes
 * @param options the options given, by name
 */
record StackCommand(String name, List<String> words, Map<String, String> options) {

  /** Each command's words and options, for the usage line and the checks. */
  private static final Map<String, Shape> SHAPES =
      Map.of(
          "start",
              new Shape(
                  List.of(),
                  Set.of(
                      "dir",
                      "kafkaPort",
                      "flinkPort",
                      "prometheusPort",
                      "postgresPort",
                      "taskManagers")),
          "stop", new Shape(List.of(), Set.of("dir", "logs")),
          "topic", new Shape(List.of("NAME", "PARTITIONS"), Set.of("dir")),
          "produce", new Shape(List.of("TOPIC", "FILE"), Set.of("dir")),
          "consume", new Shape(List.of("TOPIC"), Set.of("dir", "seconds", "keys")),
          "flink", new Shape(List.of("ARGUMENTS..."), Set.of("dir")),
          "psql", new Shape(List.of("SQL"), Set.of("dir")));

  static final String USAGE =
      "usage: stack start|stop|topic NAME PARTITIONS|produce TOPIC FILE|consume TOPIC|psql SQL"
          + " [--dir=DIR] [options], or stack [--dir=DIR] flink ARGUMENTS...";

  /**
   * The command {@code args} give.
   *
   * @throws IllegalArgumentException with one line saying what is wrong: an unknown command, too
   *     few or too many words, an option the command does not take, or one given twice
   */
  static StackCommand parse(String... args) {
    List<String> words = new ArrayList<>();
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("flink") && words.isEmpty()) {
        // Flink's command line takes the rest as it is, its own options among them.
        words.add(arg);
        words.addAll(List.of(args).subList(i + 1, args.length));
        break;
      }
      if (arg.startsWith("--")) {
        int equals = arg.indexOf('=');
        String name = arg.substring(2, equals < 0 ? arg.length() : equals);
        if (equals < 0) {
          throw new IllegalArgumentException("--" + name + " takes a value: --" + name + "=...");
        }
        if (options.put(name, arg.substring(equals + 1)) != null) {
          throw new IllegalArgumentException("--" + name + " is given more than once");
        }
      } else {
        words.add(arg);
      }
    }
    if (words.isEmpty() || !SHAPES.containsKey(words.get(0))) {
      throw new IllegalArgumentException(USAGE);
    }
    String name = words.remove(0);
    Shape shape = SHAPES.get(name);
    boolean flinkWithArguments = name.equals("flink") && !words.isEmpty();
    if (!flinkWithArguments && words.size() != shape.words().size()) {
      List<String> usage = new ArrayList<>(List.of("usage: stack", name));
      usage.addAll(shape.words());
      usage.add("[--dir=DIR]");
      throw new IllegalArgumentException(String.join(" ", usage));
    }
    for (String option : options.keySet()) {
      if (!shape.options().contains(option)) {
        throw new IllegalArgumentException(
            "--"
                + option
                + " is not an option of "
                + name
                + "; it takes --"
                + String.join(", --", new TreeSet<>(shape.options())));
      }
    }
    return new StackCommand(name, List.copyOf(words), Map.copyOf(options));
  }

  /** A command's words, by their names in the usage line, and the options it takes. */
  private record Shape(List<String> words, Set<String> options) {}
}
