package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.Path;

/** The jobs the steady-rate benchmark compares, each S5's metrics on a live topic. */
enum SteadyVariant {
  TIDEMARK("tidemark", "tidemark metrics"),
  TIDEMARK_FINAL("tidemark-final", "tidemark metrics --emit=final"),
  NATIVE_FLINK("native", "hand-written Flink DataStream");

  private final String option;
  private final String label;

  SteadyVariant(String option, String label) {
    this.option = option;
    this.label = label;
  }

  /** Its name in {@code --variants}. */
  String option() {
    return option;
  }

  String label() {
    return label;
  }

  /** The class path of its JVM: the jar a user runs for tidemark ({@link ChildClassPath}). */
  String classPath(Path directory) throws IOException {
    return this == NATIVE_FLINK
        ? ChildClassPath.ofBenchmark()
        : ChildClassPath.ofTidemark(directory);
  }
}
