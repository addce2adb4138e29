package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.Path;

/** The jobs the Kafka benchmark compares, each S5's query on the same live topic. */
enum LiveVariant {
  TIDEMARK("tidemark", "tidemark metrics, live Kafka") {
    @Override
    Result run(S5Topic topic, int parallelism) throws Exception {
      return TidemarkLiveRun.run("metrics", topic, parallelism);
    }
  },
  TIDEMARK_SQL("sql", "tidemark sql, S5's query text, live Kafka") {
    @Override
    Result run(S5Topic topic, int parallelism) throws Exception {
      return TidemarkLiveRun.run("sql", topic, parallelism);
    }
  },
  NATIVE_FLINK("native", "hand-written Flink DataStream, KafkaSource") {
    @Override
    Result run(S5Topic topic, int parallelism) throws Exception {
      return NativeFlinkKafkaMetrics.run(topic, parallelism);
    }
  },
  FLINK_SQL("flinksql", "Flink SQL, S5's query text, KafkaSource") {
    @Override
    Result run(S5Topic topic, int parallelism) throws Exception {
      return FlinkSqlKafkaMetrics.run(topic, parallelism);
    }
  };

  private final String option;
  private final String label;

  LiveVariant(String option, String label) {
    this.option = option;
    this.label = label;
  }

  /**
   * Whether it runs tidemark's jar, and so maps tidemark's archive with {@code --startupArchives}.
   */
  boolean isTidemarks() {
    return this == TIDEMARK || this == TIDEMARK_SQL;
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
   * tidemark, the benchmark's for the hand-written Flink job.
   */
  String classPath(Path directory) throws IOException {
    return isTidemarks() ? ChildClassPath.ofTidemark(directory) : ChildClassPath.ofBenchmark();
  }

  /**
   * Runs the job once in this JVM, embedded, at {@code parallelism}, until its results are exact.
   */
  abstract Result run(S5Topic topic, int parallelism) throws Exception;
}
