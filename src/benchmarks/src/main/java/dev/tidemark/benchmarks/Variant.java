package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.Path;

/** The jobs the benchmark compares, each one of S5's queries ({@link Query}) over the same file. */
enum Variant {
  TIDEMARK("tidemark", "tidemark metrics") {
    @Override
    Result run(Path input, long lines, int parallelism, Query query) throws Exception {
      return TidemarkMetricsRun.run("metrics", input, lines, parallelism, query);
    }
  },
  TIDEMARK_SQL("sql", "tidemark sql, S5's query text") {
    @Override
    Result run(Path input, long lines, int parallelism, Query query) throws Exception {
      return TidemarkMetricsRun.run("sql", input, lines, parallelism, query);
    }
  },
  TIDEMARK_TABLE("table", "tidemark metrics into PostgreSQL") {
    @Override
    Result run(Path input, long lines, int parallelism, Query query) throws Exception {
      return TidemarkTableRun.run(input, lines, parallelism, query);
    }
  },
  NATIVE_FLINK("native", "hand-written Flink DataStream") {
    @Override
    Result run(Path input, long lines, int parallelism, Query query) throws Exception {
      return NativeFlinkMetrics.run(input, lines, parallelism);
    }
  },
  FLINK_SQL("flinksql", "Flink SQL, S5's query text") {
    @Override
    Result run(Path input, long lines, int parallelism, Query query) throws Exception {
      return FlinkSqlMetrics.run(input, lines, parallelism, query);
    }
  },
  PLAIN_BEAM("beam", "plain Beam on the FlinkRunner") {
    @Override
    Result run(Path input, long lines, int parallelism, Query query) throws Exception {
      return PlainBeamMetrics.run(input, lines, parallelism);
    }
  };

  private final String option;
  private final String label;

  Variant(String option, String label) {
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

  /**
   * The class path of this variant's JVMs ({@link ChildClassPath}): the jar a user runs for
   * tidemark and plain Beam, the benchmark's for the hand-written Flink job and Flink SQL.
   */
  String classPath(Path directory) throws IOException {
    return this == NATIVE_FLINK || this == FLINK_SQL
        ? ChildClassPath.ofBenchmark()
        : ChildClassPath.ofTidemark(directory);
  }

  /** Whether it is one of tidemark's pipelines, which run from the jar a user runs. */
  boolean isTidemarks() {
    return this == TIDEMARK || this == TIDEMARK_SQL || this == TIDEMARK_TABLE;
  }

  /** Whether it runs {@code query}: the hand-written job and plain Beam run S5's only. */
  boolean runs(Query query) {
    return query == Query.S5 || isTidemarks() || this == FLINK_SQL;
  }

  /** Runs the job once in this JVM, embedded, at {@code parallelism}. */
  abstract Result run(Path input, long lines, int parallelism, Query query) throws Exception;
}
