package dev.tidemark.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One run of the steady-rate benchmark ({@link SteadyRateBenchmark}): its final rows' latency (p50,
 * p95, p99 of the time the final row was first seen minus the window's end), rows per window, how
 * much later the last third's median latency is than the first third's, the job's CPU per million
 * records and its JIT's part of it, how far the producer fell behind its rate, and, when asked for,
 * where the CPU went ({@code --breakdown}).
 */
record SteadyRun(
    SteadyVariant variant,
    long rate,
    long p50,
    long p95,
    long p99,
    double rowsPerWindow,
    double cpuSecondsPerMillion,
    double compilingSecondsPerMillion,
    long laterByTheEnd,
    int windows,
    int windowsWithoutFinal,
    long producerBehindMillis,
    List<String> breakdown) {

  /** The run's line, and under it where its CPU went, when that was asked for. */
  String lines() {
    StringBuilder lines = new StringBuilder(line());
    breakdown.forEach(detail -> lines.append(System.lineSeparator()).append("    ").append(detail));
    return lines.toString();
  }

  private String line() {
    return String.format(
        Locale.ROOT,
        "%-32s %,7d/s  p50 %,6d ms  p95 %,6d ms  p99 %,6d ms  %.2f rows/window  %.2f CPU s/1M"
            + " (JIT compiling %.2f)"
            + "  last third %+,d ms  (%d windows, %d without a final row; producer behind"
            + " its rate by up to %,d ms)",
        variant.label(),
        rate,
        p50,
        p95,
        p99,
        rowsPerWindow,
        cpuSecondsPerMillion,
        compilingSecondsPerMillion,
        laterByTheEnd,
        windows,
        windowsWithoutFinal,
        producerBehindMillis);
  }

  /**
   * The figures of a run: the final rows of the windows that end in [{@code from}, {@code to}] as
   * {@code watcher} saw them, and the job's CPU over the {@code records} produced in its measured
   * part.
   */
  static SteadyRun of(
      SteadyVariant variant,
      long rate,
      FinalRowWatcher watcher,
      long from,
      long to,
      long records,
      long cpuMillis,
      ThreadsCpu threads,
      long producerBehindMillis,
      Optional<CompilationsByLibrary> compilations) {
    List<FinalRowWatcher.Window> measured = new ArrayList<>();
    synchronized (watcher) {
      for (FinalRowWatcher.Window window : watcher.windows().values()) {
        if (window.end >= from && window.end <= to) {
          measured.add(window);
        }
      }
    }
    measured.sort((a, b) -> Long.compare(a.end, b.end));
    List<Long> latencies = new ArrayList<>();
    int rows = 0;
    int withoutFinal = 0;
    for (FinalRowWatcher.Window window : measured) {
      rows += window.rows;
      if (window.finalSeenAt < 0) {
        withoutFinal++;
      } else {
        latencies.add(window.finalSeenAt - window.end);
      }
    }
    int third = latencies.size() / 3;
    long laterByTheEnd =
        third == 0
            ? 0
            : median(latencies.subList(latencies.size() - third, latencies.size()))
                - median(latencies.subList(0, third));
    List<Long> sorted = new ArrayList<>(latencies);
    Collections.sort(sorted);
    double cpuSecondsPerMillion = records <= 0 ? 0 : cpuMillis / 1000.0 / (records / 1_000_000.0);
    return new SteadyRun(
        variant,
        rate,
        percentile(sorted, 50),
        percentile(sorted, 95),
        percentile(sorted, 99),
        measured.isEmpty() ? 0 : (double) rows / measured.size(),
        cpuSecondsPerMillion,
        cpuSecondsPerMillion * threads.compilerShare(),
        laterByTheEnd,
        measured.size(),
        withoutFinal,
        producerBehindMillis,
        compilations
            .map(
                compiled ->
                    List.of(
                        "CPU s/1M by thread: " + threads.busiest(cpuSecondsPerMillion),
                        compiled.line()))
            .orElse(List.of()));
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return percentile(sorted, 50);
  }

  private static long percentile(List<Long> sorted, int percent) {
    if (sorted.isEmpty()) {
      return -1;
    }
    int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
