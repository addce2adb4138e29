package dev.tidemark.benchmarks;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Waits until a live job's results count every record of the complete windows: the moment a live
 * run is timed to, since it never ends by itself. Gives up when the job stops or after {@link
 * #LIMIT}, and the run is then void.
 */
final class UntilExact {

  static final Duration LIMIT = Duration.ofMinutes(10);

  private UntilExact() {}

  /** What {@code counted} says when it reached {@code expected}, or gave up before. */
  static long await(LongSupplier counted, long expected, BooleanSupplier running)
      throws InterruptedException {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    long now = counted.getAsLong();
    while (now < expected && running.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      now = counted.getAsLong();
    }
    return now;
  }
}
