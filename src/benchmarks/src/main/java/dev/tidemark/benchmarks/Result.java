package dev.tidemark.benchmarks;

/**
 * One run of one variant: how many records it read, how long the job took from the first line that
 * builds it until its results were exact, how many records its results count, and the CPU time its
 * JVM used by then. A run whose counts do not add up to its records is void.
 */
record Result(long lines, long millis, long counted, long cpuMillis) {

  private static final String PREFIX = "RESULT ";

  /** A run of a JVM that is done now: its CPU time so far. */
  static Result now(long lines, long millis, long counted) {
    return new Result(lines, millis, counted, ProcessCpu.millis());
  }

  boolean isValid() {
    return counted == lines;
  }

  double eventsPerSecond() {
    return lines * 1000.0 / millis;
  }

  /** CPU seconds the run's JVM used per million records. */
  double cpuSecondsPerMillion() {
    return cpuMillis / 1000.0 / (lines / 1e6);
  }

  /** The line a child JVM prints for its parent. */
  String line() {
    return PREFIX + lines + " " + millis + " " + counted + " " + cpuMillis;
  }

  /** The result in a child's output line, or null if the line is not one. */
  static Result parse(String line) {
    if (!line.startsWith(PREFIX)) {
      return null;
    }
    String[] fields = line.substring(PREFIX.length()).trim().split(" ");
    return new Result(
        Long.parseLong(fields[0]),
        Long.parseLong(fields[1]),
        Long.parseLong(fields[2]),
        Long.parseLong(fields[3]));
  }
}
