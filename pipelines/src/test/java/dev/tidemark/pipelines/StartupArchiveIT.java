package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code startup-archive} on the shaded jar, as a user runs it: the archive it writes is one the
 * JVM maps, with tidemark's own classes in it, and a run that maps it prints what a run without it
 * prints, which is what the README shows {@code count} printing.
 */
class StartupArchiveIT {

  private static final Path README = Path.of("..", "README.md");

  @TempDir Path directory;

  @Test
  void writesAnArchiveThatARunMapsAndThatChangesNothingItPrints() throws Exception {
    Path archive = directory.resolve("tidemark.jsa");
    Run written = run(List.of(), "startup-archive", "--archive=" + archive);
    assertThat(written.output, written.exitCode, equalTo(0));
    assertThat(written.output, containsString("tidemark: wrote " + archive));
    assertThat(written.output, containsString("-XX:SharedArchiveFile=" + archive));

    Path classLoads = directory.resolve("class-loads.log");
    // -Xshare:on: the JVM refuses to start if it cannot map the archive.
    Run withArchive =
        run(
            List.of(
                "-Xshare:on",
                "-XX:SharedArchiveFile=" + archive,
                "-Xlog:class+load=info:file=" + classLoads),
            "count");
    assertThat(withArchive.output, withArchive.exitCode, equalTo(0));
    assertThat(withArchive.lines(), equalTo(new Run(0, readmesCountExample()).lines()));
    assertThat(
        Files.readAllLines(classLoads, StandardCharsets.UTF_8).stream()
            .filter(line -> line.contains(" dev.tidemark.pipelines.cli.Tidemark source: "))
            .toList(),
        contains(endsWith("dev.tidemark.pipelines.cli.Tidemark source: shared objects file")));
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

  private Run run(List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile(directory, "run", ".log");
    Process process = TidemarkJar.runWith(jvmOptions, args).redirectOutput(log.toFile()).start();
    boolean ended = process.waitFor(3, TimeUnit.MINUTES);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    if (!ended) {
      process.destroyForcibly();
      throw new AssertionError("did not end within 3 minutes: " + output);
    }
    return new Run(process.exitValue(), output);
  }

  private record Run(int exitCode, String output) {
    /**
     * Its results, late records, dead letters and summary, sorted: the order of a run's lines is
     * the order in which parallel tasks wrote them.
     */
    List<String> lines() {
      return output
          .lines()
          .filter(line -> line.startsWith("{") || line.startsWith("tidemark:"))
          .sorted()
          .toList();
    }
  }
}
