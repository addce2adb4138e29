package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sql} from a copy of the shaded jar: the first run plans its query with Beam SQL and saves
 * the plan beside the jar; the next run of the same query reads it, never loading Beam SQL's
 * environment, and prints the same rows.
 */
class SavedQueryPlansIT {

  /** The class a run that plans its query loads first of Beam SQL's planning. */
  private static final String PLANNER = " org.apache.beam.sdk.extensions.sql.impl.BeamSqlEnv ";

  @TempDir Path directory;

  @Test
  void theSecondRunOfAQueryReadsThePlanTheFirstSaved() throws Exception {
    Path jar =
        Files.copy(Path.of("target", "tidemark.jar").toAbsolutePath(), directory.resolve("t.jar"));

    String planned = run(jar, "planned");
    assertThat(plansBeside(jar), hasSize(1));
    assertThat(loads("planned"), containsString(PLANNER));

    String read = run(jar, "read");
    assertThat(loads("read"), not(containsString(PLANNER)));
    assertThat(results(read), equalTo(results(planned)));
    assertThat(results(read), not(equalTo(List.of())));
  }

  /** Runs S5's query over the bundled sample; its output, with each class it loaded logged. */
  private String run(Path jar, String name) throws IOException, InterruptedException {
    Path log = directory.resolve(name + ".log");
    Process process =
        TidemarkJar.runFrom(
                jar,
                List.of(
                    "-Dtidemark.startupArchive=off",
                    "-Xlog:class+load=info:file=" + directory.resolve(name + "-loads.log")),
                "sql",
                "--runner=DirectRunner")
            .redirectOutput(log.toFile())
            .start();
    boolean ended = process.waitFor(3, TimeUnit.MINUTES);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    if (!ended) {
      process.destroyForcibly();
      throw new AssertionError("did not end within 3 minutes: " + output);
    }
    assertThat(output, process.exitValue(), equalTo(0));
    return output;
  }

  private String loads(String name) throws IOException {
    return Files.readString(directory.resolve(name + "-loads.log"), StandardCharsets.UTF_8);
  }

  /** A run's result lines, sorted: parallel tasks write them in any order. */
  private static List<String> results(String output) {
    return output.lines().filter(line -> line.startsWith("{")).sorted().toList();
  }

  private static List<Path> plansBeside(Path jar) throws IOException {
    try (Stream<Path> files = Files.walk(jar.getParent())) {
      return files.filter(file -> file.toString().endsWith(".plan")).toList();
    }
  }
}
