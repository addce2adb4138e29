package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JFR recordings a steady-rate job's JVM makes, each into the run's directory, named after the
 * run's topic: a profile ({@code --profile}, with Java's {@code profile} settings or a {@code .jfc}
 * file's), and its JIT compilations ({@code --breakdown}, with {@link
 * CompilationsByLibrary#SETTINGS} written to a file). A JVM writes them as it exits.
 *
 * @param profile the profile's settings, when a profile is recorded
 * @param compilationSettings the compilations' settings file, when they are recorded
 */
record JvmRecordings(Optional<String> profile, Optional<Path> compilationSettings) {

  /** The options that start the recordings of the job that reads {@code topic}. */
  List<String> jvmOptions(Path directory, String topic) {
    List<String> options = new ArrayList<>();
    profile.ifPresent(
        settings ->
            options.add(
                "-XX:StartFlightRecording=filename="
                    + directory.resolve(topic + ".jfr")
                    + ",settings="
                    + settings));
    compilationSettings.ifPresent(
        settings ->
            options.add(
                "-XX:StartFlightRecording=name=compilations,filename="
                    + compilationsOf(directory, topic)
                    + ",settings="
                    + settings));
    return options;
  }

  /**
   * What the exited job that read {@code topic} compiled in [{@code from}, {@code to}), when its
   * compilations were recorded.
   */
  Optional<CompilationsByLibrary> compilations(
      Path directory, String topic, Instant from, Instant to) throws IOException {
    if (compilationSettings.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(CompilationsByLibrary.read(compilationsOf(directory, topic), from, to));
  }

  private static Path compilationsOf(Path directory, String topic) {
    return directory.resolve(topic + "-compilations.jfr");
  }
}
