package dev.tidemark.pipelines;

import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.io.ReplaySource;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.values.PCollectionTuple;

/** {@code file:}, {@code generator:} and {@code sample:}: a recording, replayed. */
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

  @Override
  public PCollectionTuple read(
      Pipeline pipeline, String name, EventFormat format, EventTimeSettings settings) {
    return pipeline
        .apply(
            "Replay" + name,
            Read.from(
                ReplaySource.of(lines, format.eventTimes(), settings.maxOutOfOrderness())
                    .withRate(linesPerSecond)))
        .apply("Parse" + name, ParseEvents.replayed(format));
  }
}
