package dev.tidemark.benchmarks;

/**
 * One run of one variant: how many lines it read, how long the job took from the first line that
 * builds it to its end, and how many records its results count. A run whose counts do not add up to
 * its lines is void.
 */
record Result(long lines, long millis, long counted) {

  private static final String PREFIX = "RESULT ";

  boolean isValid() {
    return counted == lines;
  }

  double eventsPerSecond() {
    return lines * 1000.0 / millis;
  }

  /** The line a child JVM prints for its parent. */
  String line() {
    return PREFIX + lines + " " + millis + " " + counted;
  }

  /** The result in a child's output line, or null if the line is not one. */
  static Result parse(String line) {
    if (!line.startsWith(PREFIX)) {
      return null;
    }
    String[] fields = line.substring(PREFIX.length()).trim().split(" ");
    return new Result(
        Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]));
  }
}
