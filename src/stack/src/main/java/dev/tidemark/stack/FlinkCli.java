package dev.tidemark.stack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Flink's own command line, {@code bin/flink}, from the Maven artifacts: its {@code CliFrontend} in
 * a JVM of its own, reading the cluster's address from the cluster's configuration directory as
 * {@code bin/flink} does ({@code FLINK_CONF_DIR}), with Flink's logs in a file rather than on the
 * terminal. What the command itself prints (the job id it submitted, what the job's main prints)
 * stays on standard output.
 */
public final class FlinkCli {

  /** Flink's command-line entry, the class {@code bin/flink} runs. */
  static final String MAIN_CLASS = "org.apache.flink.client.cli.CliFrontend";

  private FlinkCli() {}

  /**
   * {@code flink ARGUMENTS} against the cluster configured in {@code configurationDirectory},
   * logging to {@code log}, with {@code jvmOptions} before the main class.
   */
  public static ProcessBuilder command(
      Path configurationDirectory, Path log, List<String> jvmOptions, List<String> arguments) {
    List<String> args = new ArrayList<>(jvmOptions);
    args.add("-Dorg.slf4j.simpleLogger.logFile=" + log);
    args.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
    args.add(MAIN_CLASS);
    args.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(args.toArray(String[]::new)));
    builder.environment().put("FLINK_CONF_DIR", configurationDirectory.toString());
    return builder;
  }
}
