package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.io.Source;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.PCollectionTuple;

/** A live source whose lines, timestamps and watermark a {@link TestStream} dictates. */
record TestStreamSource(TestStream<String> stream) implements Source {

  @Override
  public String describe() {
    return "a TestStream";
  }

  @Override
  public PCollectionTuple read(
      Pipeline pipeline, String name, EventFormat format, EventTimeSettings settings) {
    return pipeline.apply("Stream" + name, stream).apply("Parse" + name, ParseEvents.with(format));
  }
}
