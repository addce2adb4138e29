package dev.tidemark.pipelines;

import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/** The one line a finished run prints on stderr: records in, results out, late, dead letters. */
final class RunSummary {

  private RunSummary() {}

  static String of(PipelineResult result) {
    return "tidemark: "
        + counter(result, "recordsIn")
        + " records in, "
        + counter(result, "resultsOut")
        + " results out, "
        + counter(result, "lateRecords")
        + " late, "
        + counter(result, "deadLetters")
        + " dead letters";
  }

  private static long counter(PipelineResult result, String name) {
    long total = 0;
    for (MetricResult<Long> counter :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named("tidemark", name))
                    .build())
            .getCounters()) {
      total += counter.getAttempted();
    }
    return total;
  }
}
