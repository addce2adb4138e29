package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import org.checkerframework.checker.nullness.qual.Nullable;

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

  /** The variant named {@code option} in {@code --variants}, or null if none is. */
  static @Nullable SteadyVariant ofOption(String option) {
    for (SteadyVariant variant : values()) {
      if (variant.option.equals(option)) {
        return variant;
      }
    }
    return null;
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
