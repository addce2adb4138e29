package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import dev.tidemark.transforms.testing.LineServer;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code java -jar tidemark.jar} keeps beside itself, on a copy of the shaded jar in a
 * directory of its own. The class-data archive it makes and uses by itself: the first run prints
 * what the README shows and starts making the archive in the background; the next run maps it in a
 * second JVM and prints the same; SIGTERM to the JVM a user started stops the run in the second one
 * as it stops a run by itself, and a second JVM whose launcher is killed ends too. And {@code
 * sql}'s saved plans: those two signalled runs are {@code sql}'s, the first plans its query with
 * Beam SQL and saves the plan, the second reads it and never loads Beam SQL's planner.
 */
@Order(SuiteOrder.LONG)
class AutomaticStartupArchiveIT {

  private static final Path README = Path.of("..", "README.md");

  /**
   * A class that only Beam SQL's planner running makes: a lambda of its environment's builder.
   * Loading its classes is not planning: the class preloader loads them ahead of every {@code sql}.
   */
  private static final String PLANNER =
      " org.apache.beam.sdk.extensions.sql.impl.BeamSqlEnv$BeamSqlEnvBuilder$$Lambda$";

  /**
   * The class of Flink's RPC system: Flink's own loader would load it from a jar it unpacks for
   * each run, never from the archive ({@code runner.ClassPathRpcSystemLoader}).
   */
  private static final String PEKKO_RPC_SYSTEM =
      " org.apache.flink.runtime.rpc.pekko.PekkoRpcSystem";

  /** A class a run loads once its job reads the socket, after it has built the job. */
  private static final String SOCKET_READER = " dev.tidemark.transforms.io.ReadSocketLinesFn ";

  /** The summary of a run stopped by a signal. */
  private static final String STOPPED =
      "(?s).*tidemark: \\d+ records in, \\d+ results out, \\d+ late, \\d+ dead letters"
          + " \\(stopped by a signal: counts up to the stop\\).*";

  @TempDir Path directory;

  @Test
  void theFirstRunMakesItTheNextMapItAndSignalsReachTheirRunsWhichSaveAndReadAPlan()
      throws Exception {
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
        loadLogsWith("loads-", " dev.tidemark.pipelines.CountPipeline source: shared objects file"),
        hasSize(1));
    assertThat(
        "Flink's RPC system loaded from the jar's class path, and so from the archive too",
        loadLogsWith("loads-", PEKKO_RPC_SYSTEM + " source: shared objects file"),
        hasSize(1));

    try (LineServer server = new LineServer()) {
      Path log = directory.resolve("sigterm.log");
      Process launcher = socketRun(jar, server, log, "planned");
      ProcessHandle run = theRunOf(launcher, server);
      launcher.destroy();
      assertThat("ends within 1 min", launcher.waitFor(1, TimeUnit.MINUTES), equalTo(true));
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(output, launcher.exitValue(), equalTo(143));
      assertThat(output, matchesPattern(STOPPED));
      assertThat("the run's JVM ended first", run.isAlive(), equalTo(false));
    }
    assertThat("plans saved beside the jar", plans(directory), hasSize(1));
    assertThat("a JVM that planned", loadLogsWith("planned-", PLANNER), hasSize(1));

    try (LineServer server = new LineServer()) {
      Path log = directory.resolve("sigkill.log");
      Process launcher = socketRun(jar, server, log, "read");
      ProcessHandle run = theRunOf(launcher, server);
      launcher.destroyForcibly();
      try {
        run.onExit().get(1, TimeUnit.MINUTES);
      } finally {
        run.destroyForcibly();
      }
    }
    // The run read its socket, so its log holds what it loaded as it built the job.
    assertThat("a JVM that ran sql", loadLogsWith("read-", SOCKET_READER), hasSize(1));
    assertThat("a JVM that planned again", loadLogsWith("read-", PLANNER), hasSize(0));
  }

  /**
   * {@code sql} on S5's records from {@code server}, each class it loads logged under {@code name}.
   */
  private Process socketRun(Path jar, LineServer server, Path log, String name) throws IOException {
    return TidemarkJar.runFrom(
            jar,
            List.of("-Xlog:class+load=info:file=" + directory + "/" + name + "-%p.log"),
            "sql",
            "--source=socket://127.0.0.1:" + server.port(),
            "--idleTimeout=60s")
        .redirectOutput(log.toFile())
        .start();
  }

  /** The one JVM that {@code launcher} started, once its run has connected to {@code server}. */
  private static ProcessHandle theRunOf(Process launcher, LineServer server) throws IOException {
    server.awaitClient(2, TimeUnit.MINUTES);
    server.send(
        List.of(
            "{\"t\":1586489565000,\"i\":\"a\",\"op\":\"x\"}",
            "{\"t\":1586489566000,\"i\":\"b\",\"op\":\"x\"}"));
    List<ProcessHandle> children = launcher.children().toList();
    assertThat("the launcher's JVMs", children, hasSize(1));
    return children.get(0);
  }

  /** The class-load logs named {@code prefix...} that hold {@code text}. */
  private List<Path> loadLogsWith(String prefix, String text) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(file -> file.getFileName().toString().startsWith(prefix))
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

  private static List<Path> plans(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(file -> file.toString().endsWith(".plan")).toList();
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
