package dev.tidemark.transforms.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The JVMs a test fixture starts (a Kafka broker, Flink's JobManager and TaskManagers) on the test
 * classpath, each logging to a file in one temporary directory. {@link #close()} stops them all,
 * gracefully and then by force, and deletes the directory; a shutdown hook kills them if the test
 * JVM goes first.
 */
public final class ChildJvms implements AutoCloseable {

  private final Path directory;
  private final List<Process> processes = new ArrayList<>();
  private final Thread killOnExit;

  private ChildJvms(Path directory) {
    this.directory = directory;
    this.killOnExit = new Thread(() -> processes.forEach(Process::destroyForcibly));
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /** An empty set of JVMs with a new temporary directory named after {@code prefix}. */
  public static ChildJvms inTemporaryDirectory(String prefix) throws IOException {
    return new ChildJvms(Files.createTempDirectory(prefix));
  }

  /**
   * The command line {@code java ARGS}, with this JVM's {@code java} and temporary directory
   * ({@code ARGS} may name another), compiling with C1 only and collecting with the serial
   * collector: a JVM a test starts (a broker, a Flink node, a run of the jar) runs for seconds or
   * minutes on little data, and on 2 cores C2's compile threads and G1's concurrent ones would take
   * CPU the suite's other JVMs need (a run of {@code count} takes about 13 % less CPU with the
   * serial collector). Neither changes a result.
   */
  public static ProcessBuilder java(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true);
  }

  /**
   * What {@code jcmd PID Thread.print} says of {@code process}'s threads, and of the JVMs it
   * started (the one a run from the jar starts with its startup archive): for the message of a test
   * whose child JVM did not end or answer in time, so that a hang in CI tells where it hangs.
   */
  public static String threadDump(Process process) {
    StringBuilder dumps = new StringBuilder(threadDump(process.pid()));
    process.descendants().forEach(jvm -> dumps.append("\n").append(threadDump(jvm.pid())));
    return dumps.toString();
  }

  private static String threadDump(long pid) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process dump =
          new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
              .redirectErrorStream(true)
              .start();
      String text = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return dump.waitFor(30, TimeUnit.SECONDS) ? text : text + "\n(jcmd did not end in 30 s)";
    } catch (IOException e) {
      return "(no thread dump: " + e + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(no thread dump: interrupted)";
    }
  }

  public Path directory() {
    return directory;
  }

  /**
   * Starts {@code java -cp <test classpath> ARGS} (JVM options, the main class, its arguments),
   * appending its output to {@code <log>.log}.
   */
  public Process start(String log, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path")));
    command.addAll(List.of(args));
    Process process =
        java(command.toArray(String[]::new))
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile(log).toFile()))
            .start();
    processes.add(process);
    return process;
  }

  /** The last 40 lines of {@code <log>.log}, for an error message. */
  public String tail(String log) throws IOException {
    Path file = logFile(log);
    if (!Files.exists(file)) {
      return "(no " + file.getFileName() + ")";
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  /** The lines of {@code <log>.log} that contain {@code text}, for an error message. */
  public List<String> linesContaining(String log, String text) throws IOException {
    Path file = logFile(log);
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
        .filter(line -> line.contains(text))
        .toList();
  }

  @Override
  public void close() throws IOException {
    processes.forEach(Process::destroy);
    for (Process process : processes) {
      try {
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down; the hook runs anyway.
    }
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  private Path logFile(String log) {
    return directory.resolve(log + ".log");
  }
}
