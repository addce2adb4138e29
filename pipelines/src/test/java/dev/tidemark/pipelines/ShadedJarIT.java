package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/**
 * What tidemark's jars are made of: only tidemark's own classes in its own jars, and in the shaded
 * {@code tidemark.jar} the dependencies' classes exactly as their authors built them. Every source
 * of the build is checked too, so no other project's package can come back into the repository.
 */
class ShadedJarIT {

  private static final Path REPOSITORY = Path.of("..");
  private static final List<String> MODULES =
      List.of("transforms", "pipelines", "src/stack", "src/benchmarks");

  @Test
  void noSourceOfTheBuildIsInAnotherProjectsPackage() throws IOException {
    for (String module : MODULES) {
      Path sources = REPOSITORY.resolve(module).resolve("src");
      try (Stream<Path> files = Files.walk(sources)) {
        List<String> foreign =
            files
                .map(file -> REPOSITORY.relativize(file).toString().replace('\\', '/'))
                .filter(path -> !path.contains("/dev/tidemark/") && path.contains("/java/"))
                .filter(path -> path.endsWith(".java"))
                .toList();
        assertThat("sources outside dev.tidemark in " + module, foreign, empty());
      }
    }
  }

  @Test
  void tidemarksOwnJarsCarryOnlyTidemarksClasses() throws IOException {
    for (String module : List.of("transforms", "pipelines")) {
      Path target = REPOSITORY.resolve(module).resolve("target");
      try (Stream<Path> jars = Files.list(target)) {
        List<Path> thinJars =
            jars.filter(jar -> jar.getFileName().toString().startsWith("tidemark-" + module + "-"))
                .filter(jar -> jar.getFileName().toString().endsWith(".jar"))
                .toList();
        assertThat("no jar built in " + target, thinJars.isEmpty(), equalTo(false));
        for (Path jar : thinJars) {
          assertThat("classes of another package in " + jar, classesOutsideTidemark(jar), empty());
        }
      }
    }
  }

  /**
   * Beam's {@code PipelineOptionsFactory} in the shaded jar is the very class file of Beam's core
   * jar: a shaded jar that put a class of its own in its place would fail here.
   */
  @Test
  void theShadedJarCarriesBeamsClassesAsBeamBuiltThem() throws IOException {
    String entry = PipelineOptionsFactory.class.getName().replace('.', '/') + ".class";
    byte[] beams;
    try (InputStream bytes = PipelineOptionsFactory.class.getResourceAsStream("/" + entry)) {
      beams = bytes.readAllBytes();
    }
    try (ZipFile jar = new ZipFile(Path.of("target", "tidemark.jar").toFile())) {
      ZipEntry shaded = jar.getEntry(entry);
      try (InputStream bytes = jar.getInputStream(shaded)) {
        assertThat(Arrays.equals(bytes.readAllBytes(), beams), equalTo(true));
      }
    }
  }

  /**
   * The job jar carries Beam's Flink runner and tidemark, but none of the Flink runtime that a
   * cluster has: a class of its own there would shadow nothing (Flink loads {@code
   * org.apache.flink} classes from the cluster first) and only weigh.
   */
  @Test
  void theJobJarLeavesOutFlinksRuntime() throws IOException {
    try (ZipFile jar = new ZipFile(Path.of("target", "tidemark-job.jar").toFile())) {
      assertThat(jar.getEntry("org/apache/beam/runners/flink/FlinkRunner.class"), notNullValue());
      assertThat(jar.getEntry("dev/tidemark/pipelines/cli/Tidemark.class"), notNullValue());
      assertThat(
          jar.stream()
              .map(ZipEntry::getName)
              .filter(
                  name ->
                      name.startsWith("org/apache/flink/runtime/")
                          || name.startsWith("org/apache/flink/streaming/api/")
                          || name.startsWith("org/apache/flink/client/"))
              .toList(),
          empty());
    }
  }

  private static List<String> classesOutsideTidemark(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.stream()
          .map(ZipEntry::getName)
          .filter(name -> name.endsWith(".class"))
          .filter(name -> !name.startsWith("dev/tidemark/"))
          .toList();
    }
  }
}
