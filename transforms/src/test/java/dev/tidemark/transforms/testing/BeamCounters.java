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

  /** The sum of tidemark's counter {@code name} over every step. */
  public static long tidemark(PipelineResult result, String name) {
    return sum(result, MetricsFilter.builder().addNameFilter(tidemarkCounter(name)).build());
  }

  /** The sum of tidemark's counter {@code name} over the steps within {@code step}. */
  public static long tidemark(PipelineResult result, String step, String name) {
    return sum(
        result, MetricsFilter.builder().addNameFilter(tidemarkCounter(name)).addStep(step).build());
  }

  private static MetricNameFilter tidemarkCounter(String name) {
    return MetricNameFilter.named(TidemarkMetrics.NAMESPACE, name);
  }

  private static long sum(PipelineResult result, MetricsFilter filter) {
    long sum = 0;
    for (MetricResult<Long> counter : result.metrics().queryMetrics(filter).getCounters()) {
      sum += counter.getAttempted();
    }
    return sum;
  }
}
