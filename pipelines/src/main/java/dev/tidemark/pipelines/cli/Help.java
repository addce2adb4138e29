package dev.tidemark.pipelines.cli;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/** {@code --help}: every option of a pipeline, with its default and what it does. */
final class Help {

  private static final String RUNNER_OPTIONS =
      "  --runner=FlinkRunner\n"
          + "      FlinkRunner or DirectRunner\n"
          + "  --flinkMaster=[local]\n"
          + "      [local] for an embedded Flink cluster, or HOST:PORT of a cluster's REST endpoint\n"
          + "  --parallelism=<runner's default>\n"
          + "      How many parallel instances each step runs\n"
          + "  --checkpointingInterval=-1\n"
          + "      Flink: milliseconds between checkpoints; -1 for none. With checkpoints, a\n"
          + "      restarted job resumes Kafka sources from their offsets and keeps window state\n"
          + "  --checkpointingMode=EXACTLY_ONCE\n"
          + "      Flink: EXACTLY_ONCE or AT_LEAST_ONCE state; sinks deliver at least once\n"
          + "  --numberOfExecutionRetries=-1\n"
          + "      Flink: restarts after a failure before the job fails (-1: Flink's default)\n"
          + "  --executionRetryDelay=-1\n"
          + "      Flink: milliseconds between a failure and the restart (-1: Flink's default)\n"
          + "  --savepointPath=<none>\n"
          + "      Flink, a cluster: start the job from this savepoint (taken with Flink's stop\n"
          + "      --savepointPath), with the same jar and options, to upgrade without losing a window\n"
          + "  --flinkConfDir=<none>\n"
          + "      Flink: a directory with your own flink-conf.yaml for an embedded run (by\n"
          + "      default it listens on 127.0.0.1 only and deletes its files at the end)\n";

  private Help() {}

  static void general(PrintStream out) {
    out.println("usage: java -jar tidemark.jar <pipeline> [--option=value ...]");
    out.println();
    out.println("pipelines:");
    out.println("  count    per-key count (and sum) in tumbling event-time windows (S1, S2, S3)");
    out.println("  metrics  per (i, op) count per second of JSON statistics records (S5)");
    out.println("  join     orders left-join coupons on orderBatchId per window (S4)");
    out.println(
        "  explain  what count does with a recording or a Kafka topic, window by window, without a"
            + " job");
    out.println();
    out.println("and:");
    out.println("  startup-archive  a class-data archive of the jar, with which runs start sooner");
    out.println();
    out.println("'java -jar tidemark.jar <pipeline> --help' lists a pipeline's options.");
  }

  /** The options of command {@code name}, and the runner's if it runs a pipeline. */
  static void command(String name, Class<?> options, boolean runsPipeline, PrintStream out) {
    out.println("usage: java -jar tidemark.jar " + name + " [--option=value ...]");
    out.println();
    out.println("options:");
    for (Map.Entry<String, Method> option : ownOptions(options).entrySet()) {
      Method getter = option.getValue();
      out.println("  --" + option.getKey() + "=" + defaultOf(getter));
      out.println("      " + getter.getAnnotation(Description.class).value());
    }
    if (runsPipeline) {
      out.print(RUNNER_OPTIONS);
    }
  }

  /** The default of the option {@code getter} reads, as the command line writes it. */
  private static String defaultOf(Method getter) {
    Default.String text = getter.getAnnotation(Default.String.class);
    if (text != null) {
      return text.value();
    }
    Default.Integer number = getter.getAnnotation(Default.Integer.class);
    return number == null ? "<none>" : String.valueOf(number.value());
  }

  /** The options tidemark declares, from the pipeline's interface up, by name. */
  static Map<String, Method> ownOptions(Class<?> options) {
    List<Method> getters = new ArrayList<>();
    collect(options, getters);
    getters.sort(Comparator.comparing(Help::optionName));
    Map<String, Method> byName = new LinkedHashMap<>();
    for (Method getter : getters) {
      byName.putIfAbsent(optionName(getter), getter);
    }
    return byName;
  }

  private static void collect(Class<?> type, List<Method> getters) {
    // tidemark's own option interfaces, not Beam's or Flink's (their options are listed below).
    if (!type.getPackageName().startsWith("dev.tidemark.")) {
      return;
    }
    for (Method method : type.getDeclaredMethods()) {
      if (method.getName().startsWith("get") && method.getAnnotation(Description.class) != null) {
        getters.add(method);
      }
    }
    for (Class<?> parent : type.getInterfaces()) {
      collect(parent, getters);
    }
  }

  private static String optionName(Method getter) {
    String name = getter.getName().substring(3);
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }
}
