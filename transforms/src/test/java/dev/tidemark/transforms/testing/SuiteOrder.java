package dev.tidemark.transforms.testing;

/**
 * The {@code @Order} of the test classes that take longest (a pipeline on both runners, a broker):
 * the suite runs two classes at a time, and when the long ones start first the short ones fill in
 * beside them, instead of one long class running alone at the end while the other thread waits.
 * Classes without an {@code @Order} come after them.
 */
public final class SuiteOrder {

  /** The {@code @Order} of a test class that takes longest. */
  public static final int LONGEST_FIRST = 1;

  /**
   * The {@code @Order} of a long test class that runs beside the longest, one after another on the
   * other thread (the classes that share a Flink cluster): after them, before the short ones.
   */
  public static final int LONG = 2;

  private SuiteOrder() {}
}
