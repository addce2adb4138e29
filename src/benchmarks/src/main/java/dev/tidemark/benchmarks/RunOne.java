package dev.tidemark.benchmarks;

import java.nio.file.Path;

/**
 * Runs one variant once in this JVM and prints its {@link Result} line: what {@link Benchmark}
 * starts, one JVM per run, so no run warms up or pollutes another.
 */
public final class RunOne {

  private RunOne() {}

  /** {@code VARIANT FILE LINES PARALLELISM QUERY}. */
  public static void main(String[] args) throws Exception {
    Result result =
        Variant.valueOf(args[0])
            .run(
                Path.of(args[1]),
                Long.parseLong(args[2]),
                Integer.parseInt(args[3]),
                Query.valueOf(args[4]));
    System.out.println(result.line());
    System.exit(0);
  }
}
