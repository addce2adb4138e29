package dev.tidemark.pipelines;

import dev.tidemark.transforms.testing.ChildJvms;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code java -jar target/tidemark.jar ARGS}: tidemark as a user runs it, for the ITs. */
final class TidemarkJar {

  private TidemarkJar() {}

  /** The command line {@code java -jar tidemark.jar ARGS}, output and errors merged. */
  static ProcessBuilder run(String... args) {
    return runWith(List.of(), args);
  }

  /** The same, with {@code jvmOptions} before {@code -jar}. */
  static ProcessBuilder runWith(List<String> jvmOptions, String... args) {
    return runFrom(Path.of("target", "tidemark.jar").toAbsolutePath(), jvmOptions, args);
  }

  /** {@code java JVM_OPTIONS -jar JAR ARGS}: a copy of the jar elsewhere, say. */
  static ProcessBuilder runFrom(Path jar, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>(jvmOptions);
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(args));
    return ChildJvms.java(command.toArray(String[]::new));
  }
}
