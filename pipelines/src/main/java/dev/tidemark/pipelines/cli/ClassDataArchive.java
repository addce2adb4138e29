package dev.tidemark.pipelines.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's application class-data sharing, as tidemark uses it to start sooner: a list of classes,
 * an archive written from the list, and the options that make a run map it. The archive holds the
 * classes of one class path, parsed and verified once; a JVM that maps it skips reading, parsing
 * and verifying them again, which is most of what loading the many thousands of classes of Beam,
 * Flink and tidemark costs a run.
 *
 * <p>A static archive written from a list ({@code -Xshare:dump}), not one written as a run exits
 * ({@code -XX:ArchiveClassesAtExit}): on Java 17.0.15 that crashed the exiting JVM in 2 of 6 tries,
 * in {@code SystemDictionaryShared::adjust_lambda_proxy_class_dictionary}, while writing from a
 * list never did. The JVM checks an archive against its class path and its own build when it
 * starts, and ignores one that does not match: the run then starts as it would without it.
 */
public final class ClassDataArchive {

  private ClassDataArchive() {}

  /** The JVM options of a training run that writes the classes it loads to {@code classList}. */
  public static List<String> listingClassesTo(Path classList) {
    return List.of("-XX:DumpLoadedClassList=" + classList);
  }

  /**
   * The JVM options of a run that maps {@code archive}, and fails at once if it cannot: for a check
   * and for a benchmark, where a run that quietly started without it would measure the wrong thing.
   */
  public static List<String> requiring(Path archive) {
    return List.of("-Xshare:on", "-XX:SharedArchiveFile=" + archive);
  }

  /**
   * Writes {@code archive} of the classes the runs of {@code jar} load, for runs started with
   * {@code java -jar JAR}: the JDK's own default list ({@code lib/classlist} of this JVM's Java,
   * the classes of its default archive), then the classes of the jar that {@link ClassPreloader}
   * lists. The archive is written beside its place and moved there once the JVM has mapped it, so
   * that a run never finds a part of one.
   *
   * @throws IllegalStateException if a JVM fails
   * @throws UncheckedIOException if the list or the archive cannot be written
   */
  public static void writeForJar(Path jar, Path archive) {
    Path written =
        archive.resolveSibling(archive.getFileName() + ".part" + ProcessHandle.current().pid());
    try {
      writeOfTheJarsClasses(written, jar.toString());
      java(
          "checking the archive",
          "-Xshare:on",
          "-XX:SharedArchiveFile=" + written,
          "-cp",
          jar.toString(),
          Tidemark.class.getName(),
          "--help");
      Files.move(
          written, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + archive, e);
    } finally {
      deleteQuietly(written);
    }
  }

  /**
   * Writes {@code archive} of the classes the jar's runs load ({@link #classListOfTheJar}), for
   * runs on {@code classPath}, which begins with the jar.
   *
   * @throws IllegalStateException if the JVM that writes it fails
   * @throws IOException if the list of classes cannot be written
   */
  public static void writeOfTheJarsClasses(Path archive, String classPath) throws IOException {
    Path classList = Files.createTempFile("tidemark-", ".classes");
    try {
      Files.write(classList, classListOfTheJar());
      write(classList, archive, classPath);
    } finally {
      deleteQuietly(classList);
    }
  }

  /**
   * The classes an archive of the jar holds, as {@code -Xshare:dump} reads them: the JDK's default
   * class list, then the classes of the jar that {@link ClassPreloader} lists.
   */
  static List<String> classListOfTheJar() throws IOException {
    List<String> classes = new ArrayList<>();
    Path jdkList = Path.of(System.getProperty("java.home"), "lib", "classlist");
    if (Files.isRegularFile(jdkList)) {
      for (String line : Files.readAllLines(jdkList, StandardCharsets.UTF_8)) {
        if (!line.startsWith("#")) {
          classes.add(line);
        }
      }
    }
    for (String name : ClassPreloader.classesOfEveryPipeline()) {
      classes.add(name.replace('.', '/'));
    }
    return classes;
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      file.toFile().delete();
    }
  }

  /**
   * Writes {@code archive} of the classes in {@code classList} found on {@code classPath}, which
   * must be the class path of the runs that map it, in a JVM of its own.
   *
   * @throws IllegalStateException if the JVM fails, with the end of what it printed
   */
  public static void write(Path classList, Path archive, String classPath) {
    java(
        "writing the class-data archive",
        "-Xshare:dump",
        "-XX:SharedClassListFile=" + classList,
        "-XX:SharedArchiveFile=" + archive,
        "-cp",
        classPath);
  }

  /**
   * Runs {@code java ARGS} of this JVM's Java in a JVM of its own and waits for it; what it prints
   * is kept in a file and shown only if it fails.
   *
   * @throws IllegalStateException if it exits with another code than 0, saying what {@code step}
   *     was and how it ended
   */
  static void java(String step, String... args) {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable());
    command.addAll(List.of(args));
    Path printed = null;
    try {
      printed = Files.createTempFile("tidemark-java-", ".log");
      int exitCode =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(printed.toFile())
              .start()
              .waitFor();
      if (exitCode != 0) {
        throw new IllegalStateException(
            step + " failed (exit code " + exitCode + "):\n" + lastLines(printed, 12));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(step + ": could not start " + command.get(0), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(step + ": interrupted", e);
    } finally {
      deleteQuietly(printed);
    }
  }

  /** This JVM's {@code java}. */
  static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static String lastLines(Path file, int count) throws IOException {
    List<String> lines =
        new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
  }
}
