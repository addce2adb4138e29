package dev.tidemark.pipelines.cli;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.Description;

/** {@code --help}: every option of a pipeline, with its default and what it does. */
final class Help {

  /**
   * Beam's and Flink's options that every command running a pipeline takes, as tidemark uses them.
   */
  static final List<OptionDoc> RUNNER_OPTIONS =
      List.of(
          new OptionDoc("runner", "FlinkRunner", "FlinkRunner or DirectRunner"),
          new OptionDoc(
              "flinkMaster",
              "[local]",
              "[local] for an embedded Flink cluster, or HOST:PORT of a cluster's REST endpoint"),
          new OptionDoc("parallelism", "<runner's>", "How many parallel instances each step runs"),
          new OptionDoc(
              "jobName",
              "tidemark-<pipeline>-<source>",
              "The job's name in Flink's Web UI and REST API, e.g. tidemark-metrics-kafka"),
          new OptionDoc(
              "checkpointingInterval",
              "-1",
              "Flink: milliseconds between checkpoints; -1 for none. With checkpoints, a restarted"
                  + " job resumes Kafka sources from their offsets and keeps window state"),
          new OptionDoc(
              "checkpointingMode",
              "EXACTLY_ONCE",
              "Flink: EXACTLY_ONCE or AT_LEAST_ONCE state; with EXACTLY_ONCE and checkpoints, Kafka"
                  + " sinks write exactly once, in Kafka transactions; with AT_LEAST_ONCE, at"
                  + " least once"),
          new OptionDoc(
              "numberOfExecutionRetries",
              "-1",
              "Flink: restarts after a failure before the job fails (-1: Flink's default)"),
          new OptionDoc(
              "executionRetryDelay",
              "-1",
              "Flink: milliseconds between a failure and the restart (-1: Flink's default)"),
          new OptionDoc(
              "savepointPath",
              OptionDoc.NONE,
              "Flink, a cluster: start the job from this savepoint (taken with Flink's stop"
                  + " --savepointPath or the REST API's /jobs/<id>/stop), with the same jar and"
                  + " options, to upgrade without losing a window"),
          new OptionDoc(
              "flinkConfDir",
              OptionDoc.NONE,
              "Flink: a directory with your own flink-conf.yaml for an embedded run (by default it"
                  + " listens on 127.0.0.1 only and deletes its files at the end)"));

  private Help() {}

  static void general(PrintStream out) {
    out.println("usage: java -jar tidemark.jar <pipeline> [--option=value ...]");
    out.println();
    out.println("pipelines:");
    out.println("  count    per-key count (and sum) in tumbling event-time windows (S1, S2, S3)");
    out.println("  metrics  per (i, op) count per second of JSON statistics records (S5)");
    out.println("  join     orders left-join coupons on orderBatchId per window (S4)");
    out.println(
        "  sql      your own windowed SQL query over JSON or CSV records (S5's by default)");
    out.println(
        "  explain  what count does with a recording or a Kafka topic, window by window, without a"
            + " job");
    out.println();
    out.println("and:");
    out.println(
        "  startup-archive  makes now the class-data archive that runs of the jar make and use by"
            + " themselves");
    out.println();
    out.println("'java -jar tidemark.jar <pipeline> --help' lists a pipeline's options.");
  }

  /** The options of command {@code name}, and the runner's if it runs a pipeline. */
  static void command(String name, Class<?> options, boolean runsPipeline, PrintStream out) {
    out.println("usage: java -jar tidemark.jar " + name + " [--option=value ...]");
    out.println();
    out.println("options:");
    for (OptionDoc option : ownOptionDocs(options)) {
      print(option, out);
    }
    if (runsPipeline) {
      RUNNER_OPTIONS.forEach(option -> print(option, out));
    }
  }

  private static void print(OptionDoc option, PrintStream out) {
    out.println("  --" + option.name() + "=" + option.defaultValue());
    out.println("      " + option.description());
  }

  /** The options tidemark declares for {@code options}, by name, with their texts. */
  static List<OptionDoc> ownOptionDocs(Class<?> options) {
    List<OptionDoc> docs = new ArrayList<>();
    ownOptions(options).forEach((name, getter) -> docs.add(OptionDoc.of(name, getter)));
    return docs;
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
