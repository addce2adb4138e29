package dev.tidemark.pipelines;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/** What every pipeline does the same way: runner settings, windowing, side outputs. */
final class Plumbing {

  private Plumbing() {}

  /**
   * Makes the run a streaming run. On Flink, keeps Impulse alive when a source starts from it (see
   * {@code ReadSocketLines}), and otherwise lets finished sources shut down, so that a replay ends
   * the job even with checkpointing on (Flink's default then keeps them forever). On the
   * DirectRunner, uses {@code --parallelism} as its target.
   */
  static void prepareRunner(TidemarkOptions options, boolean sourceStartsFromImpulse) {
    options.setStreaming(true);
    if (options.getRunner() == FlinkRunner.class) {
      options.setShutdownSourcesAfterIdleMs(sourceStartsFromImpulse ? Long.MAX_VALUE : 0L);
    }
    if (options.getParallelism() != null && options.getParallelism() > 0) {
      options.setTargetParallelism(options.getParallelism());
    }
  }

  /** The windowing preset from the options. */
  static EventTimeWindowing windowing(Duration windowSize, TidemarkOptions options) {
    return EventTimeWindowing.fixed(windowSize)
        .withAllowedLateness(Durations.parse("allowedLateness", options.getAllowedLateness()))
        .withIdleFlush(idleTimeout(options));
  }

  /** How sources stamp event time, from the options and the pipeline's own bound. */
  static EventTimeSettings eventTimeSettings(Duration maxOutOfOrderness, TidemarkOptions options) {
    return new EventTimeSettings(
        maxOutOfOrderness,
        idleTimeout(options),
        Durations.parse("maxFutureSkew", options.getMaxFutureSkew()),
        options.getStartFrom());
  }

  static Duration idleTimeout(TidemarkOptions options) {
    Duration idleTimeout = Durations.parse("idleTimeout", options.getIdleTimeout());
    if (idleTimeout.getMillis() == 0) {
      throw new ConfigurationException("--idleTimeout: 0 is not allowed; use e.g. 10s");
    }
    return idleTimeout;
  }

  static void writeLate(String name, PCollection<LateRecord> late, SinkUri sink) {
    late.apply(
            "LateToJson" + name, MapElements.into(TypeDescriptors.strings()).via(JsonLines::late))
        .apply("WriteLate" + name, sink.write());
  }

  static void writeDeadLetters(String name, PCollection<DeadLetter> dead, SinkUri sink) {
    dead.apply(
            "DeadLettersToJson" + name,
            MapElements.into(TypeDescriptors.strings()).via(JsonLines::deadLetter))
        .apply("WriteDeadLetters" + name, sink.write());
  }

  /** Formats results as JSON lines and counts them in {@code tidemark:resultsOut}. */
  static final class ResultsToJsonFn<T> extends DoFn<T, String> {
    private final Counter resultsOut = Metrics.counter("tidemark", "resultsOut");
    private final SerializableFunction<T, String> format;

    ResultsToJsonFn(SerializableFunction<T, String> format) {
      this.format = format;
    }

    @ProcessElement
    public void processElement(@Element T result, OutputReceiver<String> out) {
      resultsOut.inc();
      out.output(format.apply(result));
    }
  }
}
