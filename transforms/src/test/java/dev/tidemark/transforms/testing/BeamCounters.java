package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/** Beam's own counters of a finished pipeline. */
public final class BeamCounters {

  private BeamCounters() {}

  /**
   * How many elements Beam dropped as too late, over every step. The DirectRunner names the counter
   * {@code DroppedDueToLateness}, runners-core {@code droppedDueToLateness}; both count.
   */
  public static long droppedDueToLateness(PipelineResult result) {
    long dropped = 0;
    for (MetricResult<Long> counter :
        result.metrics().queryMetrics(MetricsFilter.builder().build()).getCounters()) {
      if (counter.getName().getName().equalsIgnoreCase("droppedDueToLateness")) {
        dropped += counter.getAttempted();
      }
    }
    return dropped;
  }

  /** The sum of tidemark's counter {@code name} over the steps within {@code step}. */
  public static long tidemark(PipelineResult result, String step, String name) {
    long sum = 0;
    for (MetricResult<Long> counter :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(TidemarkMetrics.NAMESPACE, name))
                    .addStep(step)
                    .build())
            .getCounters()) {
      sum += counter.getAttempted();
    }
    return sum;
  }
}
