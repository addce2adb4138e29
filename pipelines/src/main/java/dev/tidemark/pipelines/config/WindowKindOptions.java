package dev.tidemark.pipelines.config;

import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The options that choose the kind of window of a pipeline with {@code --windowSize}: tumbling
 * windows unless {@code --windowSlide}, {@code --windowStep} or {@code --sessionGap} says
 * otherwise. {@link EventTimeOptions#windowKind} reads them.
 */
public interface WindowKindOptions extends PipelineOptions {
  @Description(
      "Sliding windows: a window of --windowSize starts every this long, e.g. --windowSize=1m"
          + " --windowSlide=1s for a minute of counts every second (Flink SQL's HOP)")
  @Nullable String getWindowSlide();

  void setWindowSlide(String value);

  @Description(
      "Cumulating windows: from each start (every --windowSize), a window ends every this long"
          + " until it is --windowSize long, e.g. --windowSize=1d --windowStep=1h for today's"
          + " running total every hour (Flink SQL's CUMULATE)")
  @Nullable String getWindowStep();

  void setWindowStep(String value);

  @Description(
      "Session windows instead of --windowSize: a key's records this close together or closer are"
          + " one session, e.g. --sessionGap=30s (Flink SQL's SESSION); a row of a session that"
          + " later merges into another is withdrawn by a row with mergedInto")
  @Nullable String getSessionGap();

  void setSessionGap(String value);
}
