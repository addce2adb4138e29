package dev.tidemark.pipelines;

import dev.tidemark.pipelines.io.Sink;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.model.SourcePosition;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.checkerframework.checker.nullness.qual.Nullable;

/** How every pipeline writes its three outputs: results, late records, dead letters. */
final class WriteOutputs {

  private WriteOutputs() {}

  /** A line's record key, where a sink keeps one; null where the line has none. */
  private static final KvCoder<String, String> KEYED_LINE =
      KvCoder.of(NullableCoder.of(StringUtf8Coder.of()), StringUtf8Coder.of());

  /**
   * Formats results as JSON lines, each keyed by {@code keyOf} (null: no key), and writes them,
   * counting them in {@code resultsOut}.
   */
  static <T> void results(
      PCollection<T> results,
      SerializableFunction<T, String> toJson,
      SerializableFunction<T, @Nullable String> keyOf,
      Sink sink) {
    results
        .apply("ResultsToJson", ParDo.of(new ResultsToJsonFn<>(toJson, keyOf)))
        .setCoder(KEYED_LINE)
        .apply("WriteResults", sink.writeKeyed("results"));
  }

  /** Writes late records as JSON lines, each keyed by where it came from, if known. */
  static void late(String name, PCollection<LateRecord> late, Sink sink) {
    late.apply(
            "LateToJson" + name,
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.strings()))
                .via(record -> KV.of(position(record.source()), JsonLines.late(record))))
        .setCoder(KEYED_LINE)
        .apply("WriteLate" + name, sink.writeKeyed("late" + name));
  }

  /** Writes dead letters as JSON lines, each keyed by where it came from, if known. */
  static void deadLetters(PCollection<DeadLetter> dead, Sink sink) {
    dead.apply(
            "DeadLettersToJson",
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.strings()))
                .via(letter -> KV.of(position(letter.source()), JsonLines.deadLetter(letter))))
        .setCoder(KEYED_LINE)
        .apply("WriteDeadLetters", sink.writeKeyed("deadLetters"));
  }

  /** A record's key from its source position: {@code topic-partition@offset}, unique per record. */
  private static @Nullable String position(@Nullable SourcePosition source) {
    return source == null ? null : source.toString();
  }

  /** Formats results as keyed JSON lines and counts them. */
  private static final class ResultsToJsonFn<T> extends DoFn<T, KV<String, String>> {
    private final Counter resultsOut = TidemarkMetrics.resultsOut();
    private final SerializableFunction<T, String> format;
    private final SerializableFunction<T, @Nullable String> keyOf;

    ResultsToJsonFn(
        SerializableFunction<T, String> format, SerializableFunction<T, @Nullable String> keyOf) {
      this.format = format;
      this.keyOf = keyOf;
    }

    @ProcessElement
    public void processElement(@Element T result, OutputReceiver<KV<String, String>> out) {
      resultsOut.inc();
      out.output(KV.of(keyOf.apply(result), format.apply(result)));
    }
  }
}
