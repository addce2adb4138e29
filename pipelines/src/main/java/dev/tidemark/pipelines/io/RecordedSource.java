package dev.tidemark.pipelines;

import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * {@code file:}, {@code generator:} and {@code sample:}: a recording, replayed as a live run with
 * the same arrival order would see it ({@link Replay}).
 */
final class RecordedSource implements Source {

  private final RecordedLines lines;
  private final double linesPerSecond;

  RecordedSource(RecordedLines lines, double linesPerSecond) {
    this.lines = lines;
    this.linesPerSecond = linesPerSecond;
  }

  @Override
  public boolean isRecorded() {
    return true;
  }

  /** The recording with the event-time settings of the command line. */
  Replay replay(EventFormat format, EventTimeSettings settings) {
    return Replay.of(lines, format)
        .withMaxOutOfOrderness(settings.maxOutOfOrderness())
        .withMaxFutureSkew(settings.maxFutureSkew())
        .withRate(linesPerSecond);
  }

  @Override
  public PCollectionTuple read(
      Pipeline pipeline, String name, EventFormat format, EventTimeSettings settings) {
    return pipeline.apply("Replay" + name, replay(format, settings).readAndParse());
  }

  @Override
  public PCollectionTuple countPerWindow(
      Pipeline pipeline,
      EventFormat format,
      EventTimeSettings settings,
      EventTimeWindowing windowing) {
    return pipeline.apply(
        "CountReplayPerWindow", replay(format, settings).countPerWindow(windowing));
  }
}
