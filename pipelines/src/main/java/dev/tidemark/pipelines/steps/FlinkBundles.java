package dev.tidemark.pipelines.steps;

import dev.tidemark.pipelines.config.RunnerSettings.Bundles;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.Source;
import java.util.List;

/**
 * The bundles a pipeline's run gets on Flink ({@link Bundles}), from its sources and sinks: one
 * element each where rows must come at the watermark's pace, from a live source; shared among many
 * elements in a replay of a recording, and wherever a sink waits for its server as each bundle
 * ends.
 */
public final class FlinkBundles {

  private FlinkBundles() {}

  public static Bundles of(List<Source> sources, OutputSinks sinks) {
    boolean live = sources.stream().anyMatch(source -> !source.isRecording());
    return live && !sinks.anyWaitsForItsServerEachBundle() ? Bundles.EACH_ELEMENT : Bundles.SHARED;
  }
}
