package dev.tidemark.pipelines;

import dev.tidemark.pipelines.io.Sink;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.LateRecord;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;

/** How every pipeline writes its three outputs: results, late records, dead letters. */
final class WriteOutputs {

  private WriteOutputs() {}

  /** Formats results as JSON lines and writes them, counting them in {@code resultsOut}. */
  static <T> void results(
      PCollection<T> results, SerializableFunction<T, String> toJson, Sink sink) {
    results
        .apply("ResultsToJson", ParDo.of(new ResultsToJsonFn<>(toJson)))
        .apply("WriteResults", sink.write());
  }

  static void late(String name, PCollection<LateRecord> late, Sink sink) {
    late.apply(
            "LateToJson" + name, MapElements.into(TypeDescriptors.strings()).via(JsonLines::late))
        .apply("WriteLate" + name, sink.write());
  }

  static void deadLetters(PCollection<DeadLetter> dead, Sink sink) {
    dead.apply(
            "DeadLettersToJson",
            MapElements.into(TypeDescriptors.strings()).via(JsonLines::deadLetter))
        .apply("WriteDeadLetters", sink.write());
  }

  /** Formats results as JSON lines and counts them. */
  private static final class ResultsToJsonFn<T> extends DoFn<T, String> {
    private final Counter resultsOut = TidemarkMetrics.resultsOut();
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
