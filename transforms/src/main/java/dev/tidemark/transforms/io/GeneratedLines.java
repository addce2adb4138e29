package dev.tidemark.transforms.io;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A synthetic, reproducible stream of records, {@code key,epochMillis} lines unless {@link
 * #withShape} asks for another pipeline's format: event time advances by a fixed step per record
 * from a start time, each record is out of order by up to a bound, a fraction arrives far too late
 * (a minute behind), and a fraction is malformed. The same seed gives the same lines. Immutable:
 * each {@code with} method returns a changed copy.
 *
 * <pre>{@code
 * GeneratedLines.records(10_000).withKeys(5).withOutOfOrderness(Duration.standardSeconds(2))
 *     .withLateFraction(0.01).withBadFraction(0.01)
 * }</pre>
 */
public final class GeneratedLines implements RecordedLines {

  private static final long serialVersionUID = 1L;
  private static final Duration FAR_TOO_LATE = Duration.standardMinutes(1);

  private long records;
  private int keys = 3;
  private Instant start = new Instant(1_700_000_000_000L);
  private Duration step = Duration.millis(10);
  private Duration outOfOrderness = Duration.ZERO;
  private double lateFraction;
  private double badFraction;
  private long seed = 1;
  private LineShape shape = LineShape.CSV;

  private GeneratedLines() {}

  /**
   * {@code records} lines (0 for no end), 3 keys, from 2023-11-14T22:13:20Z in steps of 10 ms, in
   * order, none late or malformed, seed 1, as {@code key,epochMillis}.
   */
  public static GeneratedLines records(long records) {
    if (records < 0) {
      throw new IllegalArgumentException(
          "generator records: " + records + " is negative; use 0 (no end) or more");
    }
    GeneratedLines lines = new GeneratedLines();
    lines.records = records;
    return lines;
  }

  public GeneratedLines withKeys(int keys) {
    if (keys < 1) {
      throw new IllegalArgumentException(
          "generator keys: " + keys + " is not allowed; use 1 or more");
    }
    GeneratedLines copy = copy();
    copy.keys = keys;
    return copy;
  }

  public GeneratedLines withOutOfOrderness(Duration outOfOrderness) {
    GeneratedLines copy = copy();
    copy.outOfOrderness = outOfOrderness;
    return copy;
  }

  public GeneratedLines withLateFraction(double lateFraction) {
    GeneratedLines copy = copy();
    copy.lateFraction = fraction("late", lateFraction);
    return copy;
  }

  public GeneratedLines withBadFraction(double badFraction) {
    GeneratedLines copy = copy();
    copy.badFraction = fraction("bad", badFraction);
    return copy;
  }

  /** How far event time advances from one record to the next. */
  public GeneratedLines withStep(Duration step) {
    if (step == null || step.getMillis() < 0) {
      throw new IllegalArgumentException(
          "generator step: " + step + " is not allowed; use zero or more, e.g. 10ms");
    }
    GeneratedLines copy = copy();
    copy.step = step;
    return copy;
  }

  public GeneratedLines withSeed(long seed) {
    GeneratedLines copy = copy();
    copy.seed = seed;
    return copy;
  }

  /** Writes each record in {@code shape}, e.g. {@link LineShape#S5_STATS}. */
  public GeneratedLines withShape(LineShape shape) {
    GeneratedLines copy = copy();
    copy.shape = shape;
    return copy;
  }

  private GeneratedLines copy() {
    GeneratedLines copy = new GeneratedLines();
    copy.records = records;
    copy.keys = keys;
    copy.start = start;
    copy.step = step;
    copy.outOfOrderness = outOfOrderness;
    copy.lateFraction = lateFraction;
    copy.badFraction = badFraction;
    copy.seed = seed;
    copy.shape = shape;
    return copy;
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
          // Named by its line number, as a dead letter names the line.
          return "malformed record " + (sequence + 1);
        }
        long eventTime = start.getMillis() + sequence * step.getMillis();
        if (random.nextDouble() < lateFraction) {
          eventTime -= FAR_TOO_LATE.getMillis();
        } else if (outOfOrderness.getMillis() > 0) {
          eventTime -= random.nextLong(outOfOrderness.getMillis() + 1);
        }
        return shape.line("k" + random.nextInt(keys), eventTime, sequence);
      }
    };
  }

  @Override
  public OptionalLong totalLines() {
    return records == 0 ? OptionalLong.empty() : OptionalLong.of(records);
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
