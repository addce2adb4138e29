package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import dev.tidemark.transforms.testing.LineServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data archive that {@code java -jar tidemark.jar} makes and uses by itself, on a copy of
 * the shaded jar in a directory of its own: the first run prints what the README shows and starts
 * making the archive in the background; the next run maps it in a second JVM and prints the same;
 * SIGTERM to the JVM a user started stops the run in the second one as it stops a run by itself,
 * and a second JVM whose launcher is killed ends too.
 */
class AutomaticStartupArchiveIT {

  private static final Path README = Path.of("..", "README.md");

  /** The summary of a run stopped by a signal. */
  private static final String STOPPED =
      "(?s).*tidemark: \\d+ records in, \\d+ results out, \\d+ late, \\d+ dead letters"
          + " \\(stopped by a signal: counts up to the stop\\).*";

  @TempDir Path directory;

  @Test
  void theFirstRunMakesItTheNextMapItAndSignalsReachTheirRuns() throws Exception {
    Path jar =
        Files.copy(Path.of("target", "tidemark.jar").toAbsolutePath(), directory.resolve("t.jar"));
    List<String> readmeLines = lines(readmesCountExample());

    Run first = run(jar, List.of(), "count");
    assertThat(first.output, first.exitCode, equalTo(0));
    assertThat(lines(first.output), equalTo(readmeLines));
    assertThat(first.output, containsString("making a startup archive of the jar"));
    awaitUntil(
        "the archive beside the jar, made",
        () -> archives(directory).size() == 1 && !anyEndsWith(directory, ".making"));
    Path archive = archives(directory).get(0);
    assertThat(archive.getFileName().toString(), matchesPattern("tidemark-startup-\\w+\\.jsa"));

    Run mapped =
        run(jar, List.of("-Xlog:class+load=info:file=" + directory + "/loads-%p.log"), "count");
    assertThat(mapped.output, mapped.exitCode, equalTo(0));
    assertThat(lines(mapped.output), equalTo(readmeLines));
    assertThat(mapped.output, not(containsString("making a startup archive")));
    assertThat(
        "a JVM that ran count with the jar's classes from the archive",
        loadLogsWith(" dev.tidemark.pipelines.CountPipeline source: shared objects file"),
        hasSize(1));

    try (LineServer server = new LineServer()) {
      Path log = directory.resolve("sigterm.log");
      Process launcher = socketRun(jar, server, log);
      ProcessHandle run = theRunOf(launcher, server);
      launcher.destroy();
      assertThat("ends within 1 min", launcher.waitFor(1, TimeUnit.MINUTES), equalTo(true));
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(output, launcher.exitValue(), equalTo(143));
      assertThat(output, matchesPattern(STOPPED));
      assertThat("the run's JVM ended first", run.isAlive(), equalTo(false));
    }

    try (LineServer server = new LineServer()) {
      Path log = directory.resolve("sigkill.log");
      Process launcher = socketRun(jar, server, log);
      ProcessHandle run = theRunOf(launcher, server);
      launcher.destroyForcibly();
      try {
        run.onExit().get(1, TimeUnit.MINUTES);
      } finally {
        run.destroyForcibly();
      }
    }
  }

  private Process socketRun(Path jar, LineServer server, Path log) throws IOException {
    return TidemarkJar.runFrom(
            jar,
            List.of(),
            "count",
            "--source=socket://127.0.0.1:" + server.port(),
            "--idleTimeout=60s")
        .redirectOutput(log.toFile())
        .start();
  }

  /** The one JVM that {@code launcher} started, once its run has connected to {@code server}. */
  private static ProcessHandle theRunOf(Process launcher, LineServer server) throws IOException {
    server.awaitClient(2, TimeUnit.MINUTES);
    server.send(List.of("a,1586489565000", "b,1586489566000"));
    List<ProcessHandle> children = launcher.children().toList();
    assertThat("the launcher's JVMs", children, hasSize(1));
    return children.get(0);
  }

  private List<Path> loadLogsWith(String text) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(file -> file.getFileName().toString().startsWith("loads-"))
          .filter(file -> contains(file, text))
          .toList();
    }
  }

  private static boolean contains(Path file, String text) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  private static List<Path> archives(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(file -> file.toString().endsWith(".jsa")).toList();
    }
  }

  private static boolean anyEndsWith(Path directory, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.anyMatch(file -> file.toString().endsWith(suffix));
    }
  }

  private static void awaitUntil(String what, Callable<Boolean> condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (!condition.call()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 3 min: " + what);
      }
      Thread.sleep(200);
    }
  }

  /**
   * The README's example of {@code count} on its bundled sample: the command and what it prints.
   */
  private static String readmesCountExample() throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int example = readme.indexOf("$ java -jar pipelines/target/tidemark.jar count\n");
    assertThat("the README shows count's output", example, greaterThan(0));
    return readme.substring(example, readme.indexOf("```", example));
  }

  /**
   * A run's results, late records, dead letters and summary, sorted: the order of a run's lines is
   * the order in which parallel tasks wrote them.
   */
  private static List<String> lines(String output) {
    return output
        .lines()
        .filter(line -> line.startsWith("{") || line.startsWith("tidemark:"))
        .sorted()
        .toList();
  }

  private Run run(Path jar, List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile(directory, "run", ".log");
    Process process =
        TidemarkJar.runFrom(jar, jvmOptions, args).redirectOutput(log.toFile()).start();
    boolean ended = process.waitFor(3, TimeUnit.MINUTES);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    if (!ended) {
      process.destroyForcibly();
      throw new AssertionError("did not end within 3 minutes: " + output);
    }
    return new Run(process.exitValue(), output);
  }

  private record Run(int exitCode, String output) {}
}
