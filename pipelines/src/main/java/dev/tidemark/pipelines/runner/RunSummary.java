package dev.tidemark.pipelines.runner;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * The one line a run prints on stderr: records in, results out, filtered (when a query's {@code
 * WHERE} filtered some out), late (and, with sliding or cumulating windows, how many of those
 * missed only some of their windows), dead letters.
 */
final class RunSummary {

  /**
   * tidemark's counters, as the summary line names them. Kept here, not beside {@link FlinkJob}'s
   * REST calls: reading them would build that class's HTTP client, and set up TLS, at the end of
   * every run that never asks the REST API anything.
   */
  static final List<String> COUNTERS =
      List.of(
          TidemarkMetrics.RECORDS_IN,
          TidemarkMetrics.RESULTS_OUT,
          TidemarkMetrics.FILTERED_RECORDS,
          TidemarkMetrics.LATE_RECORDS,
          TidemarkMetrics.PARTLY_LATE_RECORDS,
          TidemarkMetrics.DEAD_LETTERS,
          TidemarkMetrics.LIKE_JSON,
          TidemarkMetrics.LIKE_CSV);

  private RunSummary() {}

  /** From a run's own metrics. */
  static String of(PipelineResult result) {
    Map<String, Long> counters = new LinkedHashMap<>();
    for (String name : COUNTERS) {
      counters.put(name, counter(result, name));
    }
    return of(counters);
  }

  /**
   * From tidemark's counters by name ({@link #COUNTERS}); with a hint, naming the {@code --format}
   * that reads them, when dead letters look written in another format than the one read.
   */
  static String of(Map<String, Long> counters) {
    return "tidemark: "
        + counters.getOrDefault(TidemarkMetrics.RECORDS_IN, 0L)
        + " records in, "
        + counters.getOrDefault(TidemarkMetrics.RESULTS_OUT, 0L)
        + " results out, "
        + filtered(counters.getOrDefault(TidemarkMetrics.FILTERED_RECORDS, 0L))
        + counters.getOrDefault(TidemarkMetrics.LATE_RECORDS, 0L)
        + " late"
        + partlyLate(counters.getOrDefault(TidemarkMetrics.PARTLY_LATE_RECORDS, 0L))
        + ", "
        + counters.getOrDefault(TidemarkMetrics.DEAD_LETTERS, 0L)
        + " dead letters"
        + hint(counters.getOrDefault(TidemarkMetrics.LIKE_JSON, 0L), "JSON records", "json")
        + hint(counters.getOrDefault(TidemarkMetrics.LIKE_CSV, 0L), "comma-separated lines", "csv");
  }

  /** How many records a query's {@code WHERE} filtered out, when it filtered any. */
  private static String filtered(long filtered) {
    return filtered == 0 ? "" : filtered + " filtered, ";
  }

  /**
   * With sliding and cumulating windows, how many of the late records missed only some of their
   * windows and are counted in the others; the rest missed all of theirs.
   */
  private static String partlyLate(long partlyLate) {
    return partlyLate == 0
        ? ""
        : " (" + partlyLate + " of them missed only some of their windows, counted in the rest)";
  }

  private static String hint(long deadLetters, String lookLike, String format) {
    return deadLetters == 0
        ? ""
        : " ("
            + deadLetters
            + " of them look like "
            + lookLike
            + ", which --format="
            + format
            + " reads)";
  }

  private static long counter(PipelineResult result, String name) {
    long total = 0;
    for (MetricResult<Long> counter :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(TidemarkMetrics.NAMESPACE, name))
                    .build())
            .getCounters()) {
      total += counter.getAttempted();
    }
    return total;
  }
}
