package dev.tidemark.benchmarks;

import java.util.Locale;

/**
 * From how many lines (or records) one job is faster than another over the whole run, given what
 * each costs before its first record (its fixed cost) and its rate once running. A job that takes
 * {@code F + N / r} for {@code N} lines and starts later but runs faster catches up at {@code N =
 * (F_a - F_b) / (1 / r_b - 1 / r_a)}. It is a model of the measured numbers, not a measurement: the
 * benchmark prints it beside the runs it comes from, and a run at that length checks it.
 *
 * @param fixedMillis the job's fixed cost
 * @param linesPerSecond the job's rate once running
 * @param otherFixedMillis the other job's fixed cost
 * @param otherLinesPerSecond the other job's rate once running
 */
record BreakEven(
    double fixedMillis,
    double linesPerSecond,
    double otherFixedMillis,
    double otherLinesPerSecond) {

  /**
   * The number of lines from which the job is at least as fast as the other over the whole run: 0
   * if it is at any length, {@link Double#POSITIVE_INFINITY} if there is no such length (it never
   * is, or only on shorter inputs), NaN if a figure is missing.
   */
  double lines() {
    if (Double.isNaN(fixedMillis + linesPerSecond + otherFixedMillis + otherLinesPerSecond)) {
      return Double.NaN;
    }
    double startsLaterByMillis = fixedMillis - otherFixedMillis;
    double gainedMillisPerLine = gainedMillisPerLine();
    if (startsLaterByMillis <= 0 && gainedMillisPerLine >= 0) {
      return 0;
    }
    return startsLaterByMillis > 0 && gainedMillisPerLine > 0
        ? startsLaterByMillis / gainedMillisPerLine
        : Double.POSITIVE_INFINITY;
  }

  /** What {@link #lines} means, in words, counting in {@code units} ("lines", "records"). */
  String describe(String units) {
    double lines = lines();
    if (Double.isNaN(lines)) {
      return "unknown (a figure is missing)";
    }
    if (lines == 0) {
      return "at any length";
    }
    if (Double.isFinite(lines)) {
      return String.format(Locale.ROOT, "from about %,.0f %s", lines, units);
    }
    if (fixedMillis < otherFixedMillis) {
      // It starts sooner but runs slower: ahead until the other catches up.
      double upTo = (otherFixedMillis - fixedMillis) / -gainedMillisPerLine();
      return String.format(Locale.ROOT, "only up to about %,.0f %s", upTo, units);
    }
    return "never, at these rates";
  }

  /** How much less time each line takes in the job than in the other, in milliseconds. */
  private double gainedMillisPerLine() {
    return 1000 / otherLinesPerSecond - 1000 / linesPerSecond;
  }
}
