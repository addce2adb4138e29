package dev.tidemark.benchmarks;

import java.nio.file.Path;

/** The jobs the benchmark compares, each S5's metrics over the same file. */
enum Variant {
  TIDEMARK("tidemark metrics") {
    @Override
    Result run(Path input, long lines, int parallelism) throws Exception {
      return TidemarkMetricsRun.run(input, lines, parallelism);
    }
  },
  NATIVE_FLINK("hand-written Flink DataStream") {
    @Override
    Result run(Path input, long lines, int parallelism) throws Exception {
      return NativeFlinkMetrics.run(input, lines, parallelism);
    }
  },
  PLAIN_BEAM("plain Beam on the FlinkRunner") {
    @Override
    Result run(Path input, long lines, int parallelism) throws Exception {
      return PlainBeamMetrics.run(input, lines, parallelism);
    }
  };

  private final String label;

  Variant(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  /** Runs the job once in this JVM, embedded, at {@code parallelism}. */
  abstract Result run(Path input, long lines, int parallelism) throws Exception;
}
