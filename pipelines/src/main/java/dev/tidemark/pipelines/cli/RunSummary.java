package dev.tidemark.pipelines.cli;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/** The one line a finished run prints on stderr: records in, results out, late, dead letters. */
final class RunSummary {

  private RunSummary() {}

  static String of(PipelineResult result) {
    return "tidemark: "
        + counter(result, TidemarkMetrics.RECORDS_IN)
        + " records in, "
        + counter(result, TidemarkMetrics.RESULTS_OUT)
        + " results out, "
        + counter(result, TidemarkMetrics.LATE_RECORDS)
        + " late, "
        + counter(result, TidemarkMetrics.DEAD_LETTERS)
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
