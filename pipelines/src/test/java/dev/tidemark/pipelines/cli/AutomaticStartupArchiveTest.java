package dev.tidemark.pipelines.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which runs use and make the automatic startup archive, and where it is: a run of a pipeline
 * started with {@code java -jar} does, unless told not to or given options a second JVM must not
 * get again; the archive's name changes with the jar. {@code AutomaticStartupArchiveIT} runs it.
 */
class AutomaticStartupArchiveTest {

  @TempDir Path directory;

  private Path jar;

  @BeforeEach
  void aJar() throws IOException {
    jar = Files.write(directory.resolve("tidemark.jar"), new byte[] {1, 2, 3});
  }

  @Test
  void aPipelinesRunFromTheJarUsesIt() {
    for (String command : List.of("count", "metrics", "join", "sql", "explain")) {
      assertThat(
          command, uses(command, List.of("-Xmx1g"), jar.toString(), jar, null), equalTo(true));
    }
    assertThat(uses("metrics", List.of(), jar.toString(), jar, "on"), equalTo(true));
  }

  @Test
  void otherCommandsAndRunsStandAside() {
    for (String command : List.of("--help", "startup-archive", "metrix")) {
      assertThat(command, uses(command, List.of(), jar.toString(), jar, null), equalTo(false));
    }
    assertThat(
        "switched off", uses("metrics", List.of(), jar.toString(), jar, "off"), equalTo(false));
    assertThat(
        "from classes", uses("metrics", List.of(), jar.toString(), null, null), equalTo(false));
    assertThat(
        "more than the jar on the class path",
        uses("metrics", List.of(), jar + ":" + directory.resolve("other.jar"), jar, null),
        equalTo(false));
    for (String option :
        List.of(
            "-XX:SharedArchiveFile=x.jsa",
            "-Xshare:off",
            "-XX:ArchiveClassesAtExit=x.jsa",
            "-XX:DumpLoadedClassList=x.classes",
            "-agentlib:jdwp=transport=dt_socket,server=y,address=5005")) {
      assertThat(
          option, uses("metrics", List.of(option), jar.toString(), jar, null), equalTo(false));
    }
  }

  @Test
  void theArchiveIsBesideTheJarAndNamedAfterIt() throws IOException {
    Path archive = AutomaticStartupArchive.of(jar);
    assertThat(archive.getParent(), equalTo(directory));
    assertThat(
        archive.getFileName().toString(), matchesPattern("tidemark-startup-[0-9a-f]+\\.jsa"));
    assertThat(AutomaticStartupArchive.of(jar), equalTo(archive));

    Files.setLastModifiedTime(jar, FileTime.fromMillis(0));
    assertThat("a rebuilt jar's", AutomaticStartupArchive.of(jar), not(equalTo(archive)));
  }

  private static boolean uses(
      String command,
      List<String> jvmArguments,
      String classPath,
      @Nullable Path runningJar,
      @Nullable String switchValue) {
    return AutomaticStartupArchive.forRun(
            new String[] {command, "--source=generator:records=10"},
            jvmArguments,
            classPath,
            runningJar,
            switchValue)
        .isPresent();
  }
}
