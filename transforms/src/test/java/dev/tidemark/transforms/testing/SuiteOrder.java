package dev.tidemark.transforms.testing;

/**
 * The {@code @Order} of the test classes that take longest (a pipeline on both runners, a broker):
 * the suite runs two classes at a time, and when the long ones start first the short ones fill in
 * beside them, instead of one long class running alone at the end while the other thread waits.
 * Classes without an {@code @Order} come between the two orders here.
 */
public final class SuiteOrder {

  /** The {@code @Order} of a test class that takes longest. */
  public static final int LONGEST_FIRST = 1;

  /**
   * The {@code @Order} of a long test class that runs beside the longest, which share a Flink
   * cluster and so run one after another: last in order, which starts it first on the other thread.
   * (JUnit's executor forks the classes in order; one thread takes them from the first, and the
   * thread that forked them runs them from the last.)
   */
  public static final int LONG = Integer.MAX_VALUE;

  private SuiteOrder() {}
}
