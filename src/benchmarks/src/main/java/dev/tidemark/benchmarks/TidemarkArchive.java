package dev.tidemark.benchmarks;

import dev.tidemark.pipelines.cli.ClassDataArchive;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The class-data archive that {@code java -jar tidemark.jar} makes of itself after a first run (the
 * same classes: {@link ClassDataArchive#writeOfTheJarsClasses}), written for the class path of one
 * of the benchmark's tidemark variants, whose JVMs run the jar beside the benchmark's own classes.
 */
final class TidemarkArchive {

  private TidemarkArchive() {}

  /** Writes it as {@code name}.jsa in {@code directory}; the JVM options of a run that maps it. */
  static List<String> jvmOptions(String classPath, Path directory, String name) throws IOException {
    System.err.printf("benchmark: writing the jar's class-data archive for %s%n", name);
    Path archive = directory.resolve(name + ".jsa");
    ClassDataArchive.writeOfTheJarsClasses(archive, classPath);
    return ClassDataArchive.requiring(archive);
  }
}
