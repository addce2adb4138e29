package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

import dev.tidemark.transforms.testing.ChildJvms;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library guide, {@code docs/library.md}, works as a user follows it: the library installed
 * with {@code mvn install}, then a new Maven project made of nothing but the guide's {@code
 * pom.xml} and its code (the short path's imports, code and {@code main}, the own-type section's
 * imports and code) compiles against it, from Maven Central and the local repository, and prints
 * what the guide says it prints. The library is installed alone ({@code -pl transforms -am}), as
 * the guide says, and its tests run on the DirectRunner and on Flink; then the SQL module's jar,
 * and the SQL section's code compiles with the dependency it names added.
 */
@Order(SuiteOrder.LONG)
class LibraryGuideIT {

  private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern BLOCK = Pattern.compile("```(xml|java)\n(.*?)```\n", Pattern.DOTALL);

  @TempDir Path project;

  @Test
  void aNewProjectBuiltFromTheLibraryGuideAloneRunsItsExample() throws Exception {
    String guide = Files.readString(REPOSITORY.resolve("docs/library.md"));
    List<String> xml = blocks(guide, "xml");
    List<String> java = blocks(guide, "java");
    Files.writeString(project.resolve("pom.xml"), xml.get(0));
    Path source = project.resolve("src/main/java/example/CountClicks.java");
    Files.createDirectories(source.getParent());
    // The short path's imports, code and main, as a class of their own.
    Files.writeString(
        source,
        "package example;\n\n"
            + blockWith(java, "import dev.tidemark.transforms.parse.CsvEventFormat;")
            + "\npublic class CountClicks {\n"
            + blockWith(java, "static PCollectionTuple countClicks(")
            + "\n"
            + blockWith(java, "public static void main(")
            + "}\n");

    // The own-type section's imports and code beside it, and its test class.
    Files.writeString(
        source.resolveSibling("ClickStats.java"),
        "package example;\n\n"
            + blockWith(java, "import dev.tidemark.transforms.parse.RecordFormat;")
            + "\npublic class ClickStats {\n"
            + blockWith(java, "static final RecordFormat<Click> CLICKS")
            + "}\n");
    Path test = project.resolve("src/test/java/example/ClickStatsTest.java");
    Files.createDirectories(test.getParent());
    Files.writeString(test, "package example;\n\n" + blockWith(java, "class ClickStatsTest {"));

    Path copy = copyOfTheLibrarysSources();
    // As the guide installs it: the library alone, with its sources and javadoc. Its tests are
    // not compiled (-Dmaven.test.skip): this build's own test jar stays in the local repository.
    run(copy, "mvn", "-B", "-q", "install", "-Dmaven.test.skip=true", "-pl", "transforms", "-am");
    assertThat(
        Files.exists(
            localRepository()
                .resolve(
                    "dev/tidemark/tidemark-transforms/0.1.0-SNAPSHOT/"
                        + "tidemark-transforms-0.1.0-SNAPSHOT-javadoc.jar")),
        is(true));
    // The guide's test on the DirectRunner, in the same Maven run that writes the class path.
    Path report = project.resolve("target/surefire-reports/TEST-example.ClickStatsTest.xml");
    run(
        project,
        "mvn",
        "-B",
        "-q",
        "test",
        "dependency:build-classpath",
        "-Dmdep.outputFile=cp.txt");
    assertThat(
        Files.readString(report),
        allOf(everyTestPassed(3), not(containsString("TestFlinkRunner"))));
    String classPath =
        project.resolve("target/classes") + ":" + Files.readString(project.resolve("cp.txt"));
    List<String> printed =
        run(
            project,
            ChildJvms.java("-cp", classPath, "example.CountClicks")
                .command()
                .toArray(String[]::new));
    assertThat(
        String.join("\n", printed),
        printed,
        hasItems(
            "01: 2 in [2020-04-10T03:32:45.000Z, 2020-04-10T03:32:50.000Z) ON_TIME",
            "dead letter: not a click (expected 2 comma-separated fields (key,epochMillis), found"
                + " 1)"));

    // The SQL section: its module's jar, as this build made it, installed; its dependency added;
    // its code compiled beside the rest with the imports it names.
    run(
        copy,
        "mvn",
        "-B",
        "-q",
        "install:install-file",
        "-Dfile=" + REPOSITORY.resolve("sql/target/tidemark-sql-0.1.0-SNAPSHOT.jar"),
        "-DpomFile=" + REPOSITORY.resolve("sql/pom.xml"));
    String pom = Files.readString(project.resolve("pom.xml"));
    Files.writeString(
        project.resolve("pom.xml"),
        pom.replaceFirst(
            "<dependencies>", "<dependencies>\n" + blockWith(xml, "tidemark-sql").strip()));
    Files.writeString(
        source.resolveSibling("BytesPerHost.java"),
        "package example;\n\n"
            + "import dev.tidemark.sql.SqlPerWindow;\n"
            + "import org.apache.beam.sdk.schemas.Schema;\n"
            + "import org.apache.beam.sdk.values.PCollection;\n"
            + "import org.apache.beam.sdk.values.PCollectionTuple;\n"
            + "import org.apache.beam.sdk.values.Row;\n"
            + "import org.joda.time.Duration;\n\n"
            + "public class BytesPerHost {\n"
            + blockWith(java, "SqlPerWindow.of(")
            + "}\n");

    // The guide's test on embedded Flink, with the guide's profile, in the Maven run that compiles
    // the SQL section's code too.
    run(project, "mvn", "-B", "-q", "test", "-Pflink");
    assertThat(
        Files.readString(report), allOf(everyTestPassed(3), containsString("TestFlinkRunner")));
  }

  /** The local Maven repository the builds this test starts install into. */
  private static Path localRepository() {
    return Path.of(System.getProperty("user.home"), ".m2", "repository");
  }

  /** A surefire report of {@code tests} tests, none failed, in error or skipped. */
  private static org.hamcrest.Matcher<String> everyTestPassed(int tests) {
    return containsString("tests=\"" + tests + "\" errors=\"0\" skipped=\"0\" failures=\"0\"");
  }

  /**
   * The repository's poms and the sources of the library and what it is built with, copied out of
   * this build's own directories: the library is built and installed from there, as a user would
   * from a clone, without rewriting the jars this test run has open.
   */
  private Path copyOfTheLibrarysSources() throws IOException {
    Path copy = Files.createDirectories(project.resolve("tidemark-clone"));
    for (String pom :
        List.of(
            "pom.xml",
            "transforms/pom.xml",
            "sql/pom.xml",
            "pipelines/pom.xml",
            "src/stack/pom.xml",
            "src/benchmarks/pom.xml")) {
      Files.createDirectories(copy.resolve(pom).getParent());
      Files.copy(REPOSITORY.resolve(pom), copy.resolve(pom));
    }
    for (String sources : List.of("transforms/src/main", "src/stack/src/main")) {
      try (Stream<Path> files = Files.walk(REPOSITORY.resolve(sources))) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          Path target = copy.resolve(REPOSITORY.relativize(file));
          Files.createDirectories(target.getParent());
          Files.copy(file, target);
        }
      }
    }
    return copy;
  }

  /** The one block of {@code blocks} that holds {@code text}. */
  private static String blockWith(List<String> blocks, String text) {
    List<String> holding = blocks.stream().filter(block -> block.contains(text)).toList();
    assertThat("blocks of the guide with " + text, holding.size(), is(1));
    return holding.get(0);
  }

  /** The fenced blocks of {@code language} in {@code text}, in order. */
  private static List<String> blocks(String text, String language) {
    List<String> blocks = new ArrayList<>();
    Matcher block = BLOCK.matcher(text);
    while (block.find()) {
      if (block.group(1).equals(language)) {
        blocks.add(block.group(2));
      }
    }
    return blocks;
  }

  /**
   * Runs {@code command} in {@code directory}; its output, one line each, once it exited 0. A Maven
   * it starts compiles with C1 only and collects with the serial collector, as the suite's other
   * JVMs do ({@link ChildJvms#java}): it builds for seconds, beside the rest of the suite.
   */
  private List<String> run(Path directory, String... command) throws Exception {
    Path log = Files.createTempFile(project, "run", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("MAVEN_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    Process process = builder.start();
    boolean ended = process.waitFor(5, TimeUnit.MINUTES);
    if (!ended) {
      process.destroyForcibly();
    }
    List<String> output = Files.readAllLines(log);
    assertThat(
        String.join(" ", command) + "\n" + String.join("\n", output),
        ended && process.exitValue() == 0,
        equalTo(true));
    return output;
  }
}
