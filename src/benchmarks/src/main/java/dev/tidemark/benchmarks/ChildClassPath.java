package dev.tidemark.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.checkerframework.checker.nullness.qual.Nullable;

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

  /**
   * The jar of the benchmark's classes this run copied, once: copied again, it would no longer be
   * the jar that an archive written from it was checked against, and the JVM would refuse the
   * archive of every variant but the last to run from tidemark's jar.
   */
  private static @Nullable Path copiedClasses;

  private ChildClassPath() {}

  /** The benchmark's own jar, with everything any child needs: the Flink jobs' class path. */
  static String ofBenchmark() {
    return System.getProperty("java.class.path");
  }

  /**
   * {@code tidemark.jar} and the benchmark's classes, copied into a jar in {@code directory} once
   * per run of the benchmark when they are in a jar.
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

  /**
   * The benchmark's classes: its own directory when it runs from one, else a jar of them copied out
   * of its jar. A jar, not a directory, because a class-data archive ({@code --startupArchives})
   * can hold only classes from jars.
   */
  private static synchronized Path benchmarkClasses(Path directory) throws IOException {
    Path codeSource = codeSource();
    if (Files.isDirectory(codeSource)) {
      return codeSource;
    }
    if (copiedClasses != null) {
      return copiedClasses;
    }
    Path classes = directory.resolve("benchmark-classes.jar");
    try (JarFile jar = new JarFile(codeSource.toFile());
        JarOutputStream copy = new JarOutputStream(Files.newOutputStream(classes))) {
      for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        if (entry.isDirectory() || !entry.getName().startsWith(BENCHMARK_CLASSES)) {
          continue;
        }
        copy.putNextEntry(new JarEntry(entry.getName()));
        try (InputStream in = jar.getInputStream(entry)) {
          in.transferTo(copy);
        }
        copy.closeEntry();
      }
    }
    copiedClasses = classes;
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
