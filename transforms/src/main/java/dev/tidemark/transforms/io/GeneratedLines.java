package dev.tidemark.transforms.io;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A synthetic, reproducible stream of {@code key,epochMillis} lines: event time advances by a fixed
 * step per record from a start time, each record is out of order by up to a bound, a fraction
 * arrives far too late (a minute behind), and a fraction is malformed. The same seed gives the same
 * lines.
 *
 * <pre>{@code
 * GeneratedLines.records(10_000).withKeys(5).withOutOfOrderness(Duration.standardSeconds(2))
 *     .withLateFraction(0.01).withBadFraction(0.01)
 * }</pre>
 */
public final class GeneratedLines implements RecordedLines {

  private static final long serialVersionUID = 1L;
  private static final Duration FAR_TOO_LATE = Duration.standardMinutes(1);

  private final long records;
  private final int keys;
  private final Instant start;
  private final Duration step;
  private final Duration outOfOrderness;
  private final double lateFraction;
  private final double badFraction;
  private final long seed;

  private GeneratedLines(
      long records,
      int keys,
      Instant start,
      Duration step,
      Duration outOfOrderness,
      double lateFraction,
      double badFraction,
      long seed) {
    this.records = records;
    this.keys = keys;
    this.start = start;
    this.step = step;
    this.outOfOrderness = outOfOrderness;
    this.lateFraction = lateFraction;
    this.badFraction = badFraction;
    this.seed = seed;
  }

  /**
   * {@code records} lines (0 for no end), 3 keys, from 2023-11-14T22:13:20Z in steps of 10 ms, in
   * order, none late or malformed, seed 1.
   */
  public static GeneratedLines records(long records) {
    if (records < 0) {
      throw new IllegalArgumentException(
          "generator records: " + records + " is negative; use 0 (no end) or more");
    }
    return new GeneratedLines(
        records, 3, new Instant(1_700_000_000_000L), Duration.millis(10), Duration.ZERO, 0, 0, 1);
  }

  public GeneratedLines withKeys(int keys) {
    if (keys < 1) {
      throw new IllegalArgumentException(
          "generator keys: " + keys + " is not allowed; use 1 or more");
    }
    return new GeneratedLines(
        records, keys, start, step, outOfOrderness, lateFraction, badFraction, seed);
  }

  public GeneratedLines withOutOfOrderness(Duration outOfOrderness) {
    return new GeneratedLines(
        records, keys, start, step, outOfOrderness, lateFraction, badFraction, seed);
  }

  public GeneratedLines withLateFraction(double lateFraction) {
    return new GeneratedLines(
        records,
        keys,
        start,
        step,
        outOfOrderness,
        fraction("late", lateFraction),
        badFraction,
        seed);
  }

  public GeneratedLines withBadFraction(double badFraction) {
    return new GeneratedLines(
        records,
        keys,
        start,
        step,
        outOfOrderness,
        lateFraction,
        fraction("bad", badFraction),
        seed);
  }

  public GeneratedLines withSeed(long seed) {
    return new GeneratedLines(
        records, keys, start, step, outOfOrderness, lateFraction, badFraction, seed);
  }

  @Override
  public Iterator<String> open() {
    SplittableRandom random = new SplittableRandom(seed);
    return new Iterator<String>() {
      private long emitted;

      @Override
      public boolean hasNext() {
        return records == 0 || emitted < records;
      }

      @Override
      public String next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        long sequence = emitted++;
        if (random.nextDouble() < badFraction) {
          return "malformed record " + sequence;
        }
        long eventTime = start.getMillis() + sequence * step.getMillis();
        if (random.nextDouble() < lateFraction) {
          eventTime -= FAR_TOO_LATE.getMillis();
        } else if (outOfOrderness.getMillis() > 0) {
          eventTime -= random.nextLong(outOfOrderness.getMillis() + 1);
        }
        return "k" + random.nextInt(keys) + "," + eventTime;
      }
    };
  }

  @Override
  public String describe() {
    return "generator ("
        + (records == 0 ? "endless" : records + " records")
        + ", seed "
        + seed
        + ")";
  }

  private static double fraction(String name, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException(
          "generator " + name + ": " + value + " is not a fraction; use a number from 0 to 1");
    }
    return value;
  }
}
