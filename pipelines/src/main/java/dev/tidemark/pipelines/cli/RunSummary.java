package dev.tidemark.pipelines.cli;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/** The one line a run prints on stderr: records in, results out, late, dead letters. */
final class RunSummary {

  private RunSummary() {}

  /** From a run's own metrics. */
  static String of(PipelineResult result) {
    Map<String, Long> counters = new LinkedHashMap<>();
    for (String name : FlinkJob.COUNTERS) {
      counters.put(name, counter(result, name));
    }
    return of(counters);
  }

  /** From tidemark's counters by name ({@link FlinkJob#COUNTERS}). */
  static String of(Map<String, Long> counters) {
    return "tidemark: "
        + counters.getOrDefault(TidemarkMetrics.RECORDS_IN, 0L)
        + " records in, "
        + counters.getOrDefault(TidemarkMetrics.RESULTS_OUT, 0L)
        + " results out, "
        + counters.getOrDefault(TidemarkMetrics.LATE_RECORDS, 0L)
        + " late, "
        + counters.getOrDefault(TidemarkMetrics.DEAD_LETTERS, 0L)
        + " dead letters";
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
