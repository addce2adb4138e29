package dev.tidemark.benchmarks;

/**
 * Runs one {@link LiveVariant} once in this JVM and prints its {@link Result} line, then ends the
 * JVM and the job with it: what {@link KafkaBenchmark} starts, one JVM per run.
 */
public final class RunOneLive {

  private RunOneLive() {}

  /** {@code VARIANT PARALLELISM} and the topic's {@link S5Topic#args()}. */
  public static void main(String[] args) throws Exception {
    Result result =
        LiveVariant.valueOf(args[0]).run(S5Topic.fromArgs(args, 2), Integer.parseInt(args[1]));
    System.out.println(result.line());
    System.exit(0);
  }
}
