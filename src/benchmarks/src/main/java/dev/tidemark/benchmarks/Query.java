package dev.tidemark.benchmarks;

import java.util.List;

/**
 * Which of S5's queries the file benchmark runs: the story's own, per second ({@code TUMBLE}), or a
 * minute of counts every second ({@code HOP}), where each record is in 60 windows, or sessions per
 * index and operation with a gap of a second ({@code SESSION}). tidemark's {@code metrics} runs
 * each with its window options, tidemark's {@code sql} and Flink SQL with the same query text.
 */
enum Query {
  S5(
      "select i as index_name, DATE_FORMAT(TUMBLE_END(rowtime, INTERVAL '1' SECOND),"
          + " 'yyyy-MM-dd HH:mm:ss') as event_time_log, op as op_type, count(op) as count_result"
          + " from _source_table group by TUMBLE(rowtime, INTERVAL '1' SECOND), i, op",
      List.of(),
      1),
  HOP(
      "select i as index_name, DATE_FORMAT(HOP_END(rowtime, INTERVAL '1' SECOND, INTERVAL '60'"
          + " SECOND), 'yyyy-MM-dd HH:mm:ss') as event_time_log, op as op_type, count(op) as"
          + " count_result from _source_table group by HOP(rowtime, INTERVAL '1' SECOND, INTERVAL"
          + " '60' SECOND), i, op",
      List.of("--windowSize=60s", "--windowSlide=1s"),
      60),
  SESSION(
      "select i as index_name, DATE_FORMAT(window_end, 'yyyy-MM-dd HH:mm:ss') as event_time_log,"
          + " op as op_type, count(op) as count_result from TABLE(SESSION(TABLE _source_table"
          + " PARTITION BY (i, op), DESCRIPTOR(rowtime), INTERVAL '1' SECOND)) group by"
          + " window_start, window_end, i, op",
      List.of("--sessionGap=1s"),
      1);

  private final String text;
  private final List<String> metricsWindows;
  private final int windowsPerRecord;

  Query(String text, List<String> metricsWindows, int windowsPerRecord) {
    this.text = text;
    this.metricsWindows = metricsWindows;
    this.windowsPerRecord = windowsPerRecord;
  }

  /** The query's text, as a Flink SQL user writes it. */
  String text() {
    return text;
  }

  /** The options that give {@code metrics} the query's windows. */
  List<String> metricsWindows() {
    return metricsWindows;
  }

  /**
   * How many records the rows' counts {@code counted} stand for: each record is in {@code
   * windowsPerRecord} windows; -1 when they are not a whole number of them, which voids the run.
   */
  long records(long counted) {
    return counted % windowsPerRecord == 0 ? counted / windowsPerRecord : -1;
  }
}
