package dev.tidemark.pipelines.steps;

import dev.tidemark.pipelines.io.Lines;
import dev.tidemark.pipelines.io.Sink;
import dev.tidemark.pipelines.runner.ClientLifelineFn;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.windowing.Expired;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How every pipeline writes its three outputs: results, late records, dead letters. Each is
 * formatted by the step that writes it ({@link Sink#write}). Beside the first of its late records'
 * writes, every pipeline follows the client that waits for it ({@link ClientLifelineFn}).
 */
public final class WriteOutputs {

  private WriteOutputs() {}

  /**
   * Writes results as JSON lines, each keyed by {@code keyOf} (null: no key), counting them in
   * {@code resultsOut}.
   */
  public static <T> void results(
      PCollection<T> results,
      SerializableFunction<T, String> toJson,
      SerializableFunction<T, @Nullable String> keyOf,
      Sink sink) {
    results(results, toJson, keyOf, result -> false, sink);
  }

  /**
   * Writes results as {@link #results(PCollection, SerializableFunction, SerializableFunction,
   * Sink)} does; a result that {@code withdraws} its window is a tombstone where keys are kept.
   */
  public static <T> void results(
      PCollection<T> results,
      SerializableFunction<T, String> toJson,
      SerializableFunction<T, @Nullable String> keyOf,
      SerializableFunction<T, Boolean> withdraws,
      Sink sink) {
    results.apply(
        "WriteResults",
        sink.write(
            "results",
            new Lines<>(counting(TidemarkMetrics.resultsOut(), toJson), keyOf, withdraws)));
  }

  /**
   * Writes late records as JSON lines, each keyed by where it came from, if known, and follows the
   * client that waits for the job from a step beside the write ({@link ClientLifelineFn}): where
   * fewest elements pass, in the step that ends last.
   */
  public static void lateFollowingTheClient(
      String name, PCollection<Expired<Event>> late, Sink sink) {
    late.apply("FollowTheClient", ParDo.of(new ClientLifelineFn<>()));
    late(name, late, sink);
  }

  /** Writes late records as JSON lines, each keyed by where it came from, if known. */
  public static void late(String name, PCollection<Expired<Event>> late, Sink sink) {
    late.apply(
        "WriteLate" + name,
        sink.write(
            "late" + name,
            new Lines<>(JsonLines::late, record -> position(record.value().source()))));
  }

  /** Writes dead letters as JSON lines, each keyed by where it came from, if known. */
  public static void deadLetters(PCollection<DeadLetter> dead, Sink sink) {
    dead.apply(
        "WriteDeadLetters",
        sink.write(
            "deadLetters",
            new Lines<>(JsonLines::deadLetter, letter -> position(letter.source()))));
  }

  /** A record's key from its source position: {@code topic-partition@offset}, unique per record. */
  private static @Nullable String position(@Nullable SourcePosition source) {
    return source == null ? null : source.toString();
  }

  /**
   * {@code format}, counting in {@code counter} each element it formats: a sink formats each
   * element it writes once ({@link Lines}).
   */
  private static <T> SerializableFunction<T, String> counting(
      Counter counter, SerializableFunction<T, String> format) {
    return element -> {
      counter.inc();
      return format.apply(element);
    };
  }
}
