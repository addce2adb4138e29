package dev.tidemark.pipelines.cli;

import dev.tidemark.pipelines.CountPipeline;
import dev.tidemark.pipelines.ExplainRecording;
import dev.tidemark.pipelines.JoinPipeline;
import dev.tidemark.pipelines.MetricsPipeline;
import dev.tidemark.pipelines.SqlPipeline;
import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.TidemarkOptions;
import dev.tidemark.pipelines.runner.FlinkLauncher;
import dev.tidemark.pipelines.runner.KafkaTopicsCheck;
import dev.tidemark.pipelines.runner.PipelineRun;
import dev.tidemark.pipelines.runner.RunDirectory;
import dev.tidemark.pipelines.runner.RunPreparation;
import dev.tidemark.pipelines.sql.QueryPlans;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The command line: {@code java -jar tidemark.jar <pipeline> [--option=value ...]}.
 *
 * <p>Runs on embedded Flink unless {@code --runner} says otherwise. Results go to the sinks (stdout
 * by default), logs to stderr. Bad configuration fails before the job starts with one line on
 * stderr and exit code 2; a run prints a summary line on stderr when it ends, and when SIGTERM or
 * Ctrl-C stops it ({@link PipelineRun}).
 */
public final class Tidemark {

  /** Exit code for bad configuration: the job did not start. */
  public static final int BAD_CONFIGURATION = 2;

  private static final Map<String, Command<?>> PIPELINES =
      Map.of(
          "count",
          Command.pipeline(
              CountPipeline.Options.class, CountPipeline::build, CountPipeline::writeReportIfAsked),
          "metrics",
          Command.pipeline(
              MetricsPipeline.Options.class,
              MetricsPipeline::build,
              MetricsPipeline::writeReportIfAsked),
          "join",
          Command.pipeline(JoinPipeline.Options.class, JoinPipeline::build, options -> {}),
          "sql",
          Command.pipeline(
              SqlPipeline.Options.class, Tidemark::buildSql, SqlPipeline::writeReportIfAsked),
          "explain",
          Command.other(
              ExplainRecording.Options.class,
              (options, args, out, err, launch) -> {
                RunPreparation.requireKafkaTopics(options, Arrays.asList(args));
                return ExplainRecording.run(options, args, out);
              },
              explainIgnores()),
          StartupArchive.COMMAND,
          Command.other(
              StartupArchive.Options.class,
              (options, args, out, err, launch) -> {
                if (launch == Launch.FLINK) {
                  throw new ConfigurationException(
                      "startup-archive archives the jar in JVMs of its own; run it with java -jar"
                          + " tidemark.jar startup-archive, not through Flink's launcher");
                }
                return StartupArchive.run(options, out, err);
              },
              runnerOptions("archives the jar in JVMs of its own", Set.of())));

  private Tidemark() {}

  /** The options of each command that reads records, in the order the README lists them. */
  static Map<String, Class<?>> optionsOfCommandsThatRead() {
    Map<String, Class<?>> options = new LinkedHashMap<>();
    for (String name : List.of("count", "metrics", "join", "sql", "explain")) {
      options.put(name, PIPELINES.get(name).options);
    }
    return options;
  }

  /**
   * {@code sql}'s pipeline, its query's plan read from the plans saved beside the jar when an
   * earlier run saved it ({@link SavedQueryPlans}), and saved there once built when not.
   */
  private static Pipeline buildSql(SqlPipeline.Options options) {
    Optional<SavedQueryPlans> saved = SavedQueryPlans.forThisJar();
    Pipeline pipeline =
        SqlPipeline.build(options, saved.<QueryPlans>map(plans -> plans).orElse(QueryPlans.NONE));
    saved.ifPresent(SavedQueryPlans::save);
    return pipeline;
  }

  /** Exit code for a run that failed: the job failed, or could not be submitted. */
  public static final int FAILED = PipelineRun.FAILED;

  public static void main(String[] args) {
    if (FlinkLauncher.isRunningThisMain()) {
      runInFlinksLauncher(args);
      return;
    }
    Optional<AutomaticStartupArchive> archive = AutomaticStartupArchive.forThisRun(args);
    if (archive.isPresent() && archive.get().exists()) {
      int exitCode = archive.get().runMapped(args);
      if (exitCode >= 0) {
        System.exit(exitCode);
      }
    }
    AutomaticStartupArchive.endWhenTheLauncherIsGone();
    ClassPreloader.startFor(args);
    int exitCode;
    try {
      exitCode = run(args, System.out, System.err);
      if (exitCode == 0) {
        archive.ifPresent(AutomaticStartupArchive::makeInBackground);
      }
    } catch (RuntimeException e) {
      // Printed as the JVM would, but exiting: a cluster that failed while it started leaves
      // threads behind that would keep the JVM alive for ever.
      System.err.print("Exception in thread \"main\" ");
      e.printStackTrace();
      exitCode = FAILED;
    }
    System.exit(exitCode);
  }

  /**
   * The command line under one of Flink's launchers: the job is submitted through the launcher's
   * environment, and what would end a {@code java -jar} run with exit code 2 is an exception with
   * the same words on one line, which the launcher shows. Never exits: the JVM is the launcher's,
   * and may be a JobManager with other jobs on it.
   */
  private static void runInFlinksLauncher(String[] args) {
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    int exitCode;
    try (PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8)) {
      exitCode = run(args, System.out, err, Launch.FLINK);
    }
    String text = said.toString(StandardCharsets.UTF_8);
    System.err.print(text);
    if (exitCode != 0) {
      throw new IllegalArgumentException(String.join(" ", text.strip().lines().toList()));
    }
  }

  /** Runs the command line and returns the exit code, without exiting. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, Launch.CLIENT);
  }

  /** Runs the command line as {@code launch} calls it; returns the exit code, without exiting. */
  static int run(String[] args, PrintStream out, PrintStream err, Launch launch) {
    if (args.length == 0) {
      Help.general(err);
      return BAD_CONFIGURATION;
    }
    if (args[0].equals("--help") || args[0].equals("help")) {
      Help.general(out);
      PIPELINES.keySet().stream()
          .sorted()
          .forEach(
              name -> {
                out.println();
                PIPELINES.get(name).help(name, out);
              });
      return 0;
    }
    Command<?> command = PIPELINES.get(args[0]);
    if (command == null) {
      err.println(
          "tidemark: '"
              + args[0]
              + "' is not a pipeline; use count, metrics, join, sql, explain or startup-archive"
              + " (or --help)");
      return BAD_CONFIGURATION;
    }
    List<String> options = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
    if (options.contains("--help")) {
      command.help(args[0], out);
      return 0;
    }
    try {
      return command.run(args[0], options, out, err, launch);
    } catch (ConfigurationException e) {
      return badConfiguration(e.getMessage(), err);
    }
  }

  /** One line on stderr for each thing {@code reasons} (one a line) says is wrong. */
  private static int badConfiguration(String reasons, PrintStream err) {
    reasons.lines().forEach(reason -> err.println("tidemark: " + reason));
    return BAD_CONFIGURATION;
  }

  /**
   * The options {@code explain} shares with {@code count} but has no use for, and the runner's
   * options but {@code --parallelism}: it prints what a run would do, and runs none.
   */
  private static Map<String, String> explainIgnores() {
    Map<String, String> ignores = new TreeMap<>();
    for (String sink : List.of("sink", "lateSink", "deadLetterSink")) {
      ignores.put(sink, "writes nothing but its explanation, to stdout");
    }
    ignores.put(
        "startFrom",
        "reads a Kafka topic from its earliest offsets; --from and --to select a time range");
    ignores.put("webUi", "runs no job");
    ignores.put("detached", "runs no job");
    // --parallelism is used: explain warns when more readers than partitions would idle for good.
    ignores.putAll(runnerOptions("runs no job", Set.of("parallelism")));
    return ignores;
  }

  /** The runner's options but {@code used}, each refused with {@code why}. */
  private static Map<String, String> runnerOptions(String why, Set<String> used) {
    Map<String, String> ignores = new TreeMap<>();
    for (String runner : OptionNames.RUNNER) {
      if (!used.contains(runner)) {
        ignores.put(runner, why);
      }
    }
    return ignores;
  }

  /**
   * tidemark's defaults for Beam's own options: embedded Flink, and a job name that says what the
   * job is ({@link DefaultJobName}).
   */
  private static String[] withDefaults(String command, List<String> givenOptions, Launch launch) {
    List<String> options = new ArrayList<>(givenOptions);
    if (options.stream().noneMatch(option -> option.startsWith("--jobName="))) {
      options.add("--jobName=" + DefaultJobName.of(command, givenOptions));
    }
    if (options.stream().noneMatch(option -> option.startsWith("--runner="))) {
      options.add("--runner=FlinkRunner");
    }
    if (options.stream().noneMatch(option -> option.startsWith("--flinkMaster="))) {
      options.add("--flinkMaster=" + launch.defaultFlinkMaster());
    }
    return options.toArray(String[]::new);
  }

  /** A command's options interface and what it does with them. */
  private static final class Command<T extends PipelineOptions> {
    private final Class<T> options;
    private final Action<T> action;
    private final boolean runsPipeline;
    private final Map<String, String> ignores;

    Command(Class<T> options, Action<T> action, boolean runsPipeline, Map<String, String> ignores) {
      this.options = options;
      this.action = action;
      this.runsPipeline = runsPipeline;
      this.ignores = ignores;
    }

    /**
     * A pipeline: built while its Kafka topics are checked, then what else it needs outside itself
     * checked and prepared ({@link RunPreparation}) and its report written if asked, then run to
     * its end and summed up on stderr ({@link PipelineRun}).
     */
    static <T extends TidemarkOptions> Command<T> pipeline(
        Class<T> options, Function<T, Pipeline> build, Consumer<T> report) {
      // The parsed options are used as they are: a view of them through as() would have Beam
      // validate all their interfaces once more.
      return new Command<>(
          options,
          (parsed, args, out, err, launch) -> {
            KafkaTopicsCheck topics =
                RunPreparation.startKafkaTopicsCheck(parsed, Arrays.asList(args));
            Pipeline pipeline = build.apply(parsed);
            topics.await();
            if (launch == Launch.FLINK) {
              report.accept(parsed);
              FlinkLauncher.submit(pipeline, parsed, err);
              return 0;
            }
            try (RunDirectory run = RunPreparation.prepareRunner(parsed)) {
              report.accept(parsed);
              return PipelineRun.run(pipeline, parsed, err);
            }
          },
          true,
          Map.of());
    }

    /**
     * A command that runs no pipeline of its own, and refuses the options in {@code ignores}, each
     * with why it would ignore it.
     */
    static <T extends PipelineOptions> Command<T> other(
        Class<T> options, Action<T> action, Map<String, String> ignores) {
      return new Command<>(options, action, false, ignores);
    }

    /** Its options; Beam's and Flink's runner options only if it runs a pipeline. */
    void help(String name, PrintStream out) {
      Help.command(name, options, runsPipeline, out);
    }

    /**
     * Checks every option name of {@code given} at once, then each value Beam would take badly,
     * then parses them (with tidemark's runner defaults for a pipeline) and runs.
     */
    int run(String name, List<String> given, PrintStream out, PrintStream err, Launch launch) {
      Set<String> taken = new HashSet<>(Help.ownOptions(options).keySet());
      taken.addAll(OptionNames.RUNNER);
      Map<String, String> ignored = new TreeMap<>(ignores);
      if (runsPipeline) {
        ignored.putAll(launch.refusedOptions());
      }
      if (runsPipeline && given.contains("--runner=DirectRunner")) {
        OptionNames.FLINK_ONLY.forEach(
            flink -> ignored.put(flink, "on the DirectRunner does not use it: it is Flink's"));
      }
      List<String> mistakes =
          new OptionNames(name, taken, ignored).mistakes(given.toArray(String[]::new));
      if (!mistakes.isEmpty()) {
        throw new ConfigurationException(String.join("\n", mistakes));
      }
      String[] args =
          runsPipeline ? withDefaults(name, given, launch) : given.toArray(String[]::new);
      ArgumentChecks.check(args, options);
      T parsed = parse(args);
      try {
        return action.run(parsed, args, out, err, launch);
      } catch (IllegalArgumentException e) {
        return badConfiguration(e.getMessage(), err);
      }
    }

    private T parse(String[] args) {
      try {
        return PipelineOptionsFactory.fromArgs(args).withValidation().as(options);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(OptionErrors.explain(e));
      }
    }
  }

  /** What a command does with its parsed options, as {@code launch} called it; the exit code. */
  @FunctionalInterface
  private interface Action<T> {
    int run(T options, String[] args, PrintStream out, PrintStream err, Launch launch);
  }
}
