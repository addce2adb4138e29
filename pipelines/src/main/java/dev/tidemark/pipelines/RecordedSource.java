package dev.tidemark.pipelines;

import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.io.ReplaySource;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.joda.time.Duration;

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
  public boolean startsFromImpulse() {
    return false;
  }

  @Override
  public PCollectionTuple read(
      Pipeline pipeline,
      String name,
      EventFormat format,
      Duration maxOutOfOrderness,
      Duration idleTimeout,
      String startFrom) {
    return pipeline
        .apply(
            "Replay" + name,
            Read.from(
                ReplaySource.of(lines, format.eventTimes(), maxOutOfOrderness)
                    .withRate(linesPerSecond)))
        .apply("Parse" + name, ParseEvents.replayed(format));
  }
}
