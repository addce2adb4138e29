package dev.tidemark.pipelines;

import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountPerWindow;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.joda.time.Duration;

/**
 * The shape {@code count} and {@code metrics} share: one source, parsed, counted per key and
 * window, each pane written as a JSON line, late records and dead letters to their sinks.
 */
final class CountingPipeline {

  private CountingPipeline() {}

  /** Builds it; the source and every sink are checked before it is returned. */
  static Pipeline build(
      SourceOptions options,
      EventFormat format,
      Duration windowSize,
      Duration maxOutOfOrderness,
      SerializableFunction<WindowResult, String> toJson) {
    Source source = SourceUri.parse("source", options.getSource());
    SinkUri sink = SinkUri.parse("sink", options.getSink());
    SinkUri lateSink = SinkUri.parse("lateSink", options.getLateSink());
    SinkUri deadLetterSink = SinkUri.parse("deadLetterSink", options.getDeadLetterSink());
    Plumbing.prepareRunner(options, source.startsFromImpulse());

    Pipeline pipeline = Pipeline.create(options);
    PCollectionTuple counted =
        source.countPerWindow(
            pipeline,
            format,
            Plumbing.eventTimeSettings(maxOutOfOrderness, options),
            Plumbing.windowing(windowSize, options));
    counted
        .get(CountPerWindow.RESULTS)
        .apply("ResultsToJson", ParDo.of(new Plumbing.ResultsToJsonFn<>(toJson)))
        .apply("WriteResults", sink.write());
    Plumbing.writeLate("", counted.get(CountPerWindow.LATE), lateSink);
    Plumbing.writeDeadLetters("", counted.get(ParseEvents.DEAD_LETTER), deadLetterSink);
    return pipeline;
  }
}
