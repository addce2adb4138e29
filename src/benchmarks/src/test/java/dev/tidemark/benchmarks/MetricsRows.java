package dev.tidemark.benchmarks;

/** Rows of {@code metrics}' output, as a steady-rate job writes them, for the benchmark's tests. */
final class MetricsRows {

  private MetricsRows() {}

  /** A row of index {@code idx_0} at {@code time} on 2023-11-14 (UTC), with its pane's timing. */
  static String row(String time, String op, String timing, boolean isFinal) {
    return "{\"index_name\":\"idx_0\",\"event_time_log\":\"2023-11-14 "
        + time
        + "\",\"op_type\":\""
        + op
        + "\",\"count_result\":3,\"timing\":\""
        + timing
        + "\",\"final\":"
        + isFinal
        + "}\n";
  }
}
