package dev.tidemark.pipelines.steps;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.Source;
import dev.tidemark.pipelines.io.TableLayout;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * The shape {@code count} and {@code metrics} share: one source, parsed, counted per key and
 * window, each pane written as a JSON line keyed by its (key, window), late records and dead
 * letters to their sinks.
 */
public final class PerWindowCounts {

  /** Everything the shape is built from, parsed and checked. */
  public record Settings(
      Source source,
      EventFormat format,
      EventTimeSettings eventTime,
      EventTimeWindowing windowing,
      OutputSinks sinks) {}

  private PerWindowCounts() {}

  /**
   * Adds the shape to {@code pipeline}, as its chain reads: the source's records counted per key
   * and window ({@link CountsOfSource}: read, parse, decide panes), then each output written to its
   * sink, in a table sink as the rows of {@code table}. Parses nothing.
   */
  public static void assemble(
      Pipeline pipeline,
      Settings settings,
      SerializableFunction<WindowResult, String> toJson,
      SerializableFunction<WindowResult, String> keyOf,
      TableLayout table) {
    PCollectionTuple counted = pipeline.apply("CountPerWindow", new CountsOfSource(settings));
    WriteOutputs.results(
        counted.get(CountPerWindow.RESULTS),
        toJson,
        keyOf,
        result -> result.pane().isWithdrawn(),
        table,
        settings.sinks());
    WriteOutputs.lateFollowingTheClient("", counted.get(CountPerWindow.LATE), settings.sinks());
    WriteOutputs.deadLetters(counted.get(ParseEvents.DEAD_LETTER), settings.sinks());
  }
}
