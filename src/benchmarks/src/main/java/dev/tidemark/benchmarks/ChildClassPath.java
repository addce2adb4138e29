package dev.tidemark.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The class path each child JVM of the benchmark runs on.
 *
 * <p>A tidemark run, and a plain Beam run, get the jar a user runs: {@code
 * pipelines/target/tidemark.jar}, and beside it only the benchmark's own classes. The benchmark's
 * jar also holds a Kafka broker, with Scala and Jackson's Scala module, which Beam's options
 * factory registers with its {@code ObjectMapper} (Jackson finds every module on the class path
 * through {@code ServiceLoader}): run from that jar, a tidemark JVM loaded 734 classes that the
 * user's never does (on a 20,000-record topic). The hand-written Flink jobs need Flink's Kafka
 * connector, which is not in tidemark's jar, and run from the benchmark's jar, where nothing of
 * Beam's is used.
 *
 * <p>{@code tidemark.jar} is looked for at the system property {@code tidemark.jar}, or else where
 * the README's command builds it, relative to the benchmark's jar.
 */
final class ChildClassPath {

  private static final String BENCHMARK_CLASSES = "dev/tidemark/benchmarks/";

  private ChildClassPath() {}

  /** The benchmark's own jar, with everything any child needs: the Flink jobs' class path. */
  static String ofBenchmark() {
    return System.getProperty("java.class.path");
  }

  /**
   * {@code tidemark.jar} and the benchmark's classes, copied into {@code directory} once per run of
   * the benchmark when they are in a jar.
   *
   * @throws IllegalStateException when {@code tidemark.jar} is not where it should be
   */
  static String ofTidemark(Path directory) throws IOException {
    Path tidemarkJar = tidemarkJar();
    if (!Files.isRegularFile(tidemarkJar)) {
      throw new IllegalStateException(
          "benchmark: no tidemark jar at "
              + tidemarkJar
              + "; build it first (mvn -DskipTests install) or give its path with"
              + " -Dtidemark.jar=PATH");
    }
    return benchmarkClasses(directory) + File.pathSeparator + tidemarkJar;
  }

  private static Path tidemarkJar() {
    String property = System.getProperty("tidemark.jar");
    if (property != null) {
      return Path.of(property);
    }
    // src/benchmarks/target/tidemark-benchmarks.jar -> pipelines/target/tidemark.jar
    Path benchmarkJar = codeSource();
    return benchmarkJar
        .getParent()
        .resolve("../../../pipelines/target/tidemark.jar")
        .normalize()
        .toAbsolutePath();
  }

  /** The directory of the benchmark's classes: its own when run from one, else a copy. */
  private static Path benchmarkClasses(Path directory) throws IOException {
    Path codeSource = codeSource();
    if (Files.isDirectory(codeSource)) {
      return codeSource;
    }
    Path classes = directory.resolve("benchmark-classes");
    try (JarFile jar = new JarFile(codeSource.toFile())) {
      for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        if (entry.isDirectory() || !entry.getName().startsWith(BENCHMARK_CLASSES)) {
          continue;
        }
        Path target = classes.resolve(entry.getName());
        Files.createDirectories(target.getParent());
        try (InputStream in = jar.getInputStream(entry)) {
          Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return classes;
  }

  private static Path codeSource() {
    try {
      return Path.of(
          ChildClassPath.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the benchmark's own classes", e);
    }
  }
}
