package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.io.Source;
import dev.tidemark.pipelines.io.SourceRead;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;

/** A live source whose lines, timestamps and watermark a {@link TestStream} dictates. */
record TestStreamSource(TestStream<String> stream) implements Source {

  @Override
  public String describe() {
    return "a TestStream";
  }

  @Override
  public SourceRead read(EventFormat format, EventTimeSettings settings) {
    ParseEvents<String> parse = ParseEvents.with(format);
    return new SourceRead.Parsed(
        new PTransform<PBegin, PCollectionTuple>() {
          @Override
          public PCollectionTuple expand(PBegin begin) {
            return begin.apply("Stream", stream).apply("Parse", parse);
          }
        });
  }
}
