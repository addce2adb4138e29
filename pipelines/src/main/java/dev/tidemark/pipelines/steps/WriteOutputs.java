package dev.tidemark.pipelines.steps;

import dev.tidemark.pipelines.io.Lines;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.Sink;
import dev.tidemark.pipelines.io.TableLayout;
import dev.tidemark.pipelines.runner.ClientLifelineFn;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.windowing.Expired;
import java.util.Optional;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.PTransform;
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
   * Writes results as JSON lines, each keyed by {@code keyOf} (null: no key), or as the rows of
   * {@code table} in a table sink, counting them in {@code resultsOut}; a result that {@code
   * withdraws} its window is a tombstone where keys are kept, and deletes its row in a table. Rows
   * a table refuses go to the dead letters.
   */
  public static <T> void results(
      PCollection<T> results,
      SerializableFunction<T, String> toJson,
      SerializableFunction<T, @Nullable String> keyOf,
      SerializableFunction<T, Boolean> withdraws,
      TableLayout table,
      OutputSinks sinks) {
    write(
        results,
        "Results",
        sinks.results(),
        new Lines<>(counting(TidemarkMetrics.resultsOut(), toJson), keyOf, withdraws, table),
        sinks);
  }

  /**
   * Writes late records as JSON lines, each keyed by where it came from, if known, and follows the
   * client that waits for the job from a step beside the write ({@link ClientLifelineFn}): where
   * fewest elements pass, in the step that ends last.
   */
  public static void lateFollowingTheClient(
      String name, PCollection<Expired<Event>> late, OutputSinks sinks) {
    late.apply("FollowTheClient", ParDo.of(new ClientLifelineFn<>()));
    late(name, late, sinks);
  }

  /** Writes late records as JSON lines, each keyed by where it came from, if known. */
  public static void late(String name, PCollection<Expired<Event>> late, OutputSinks sinks) {
    write(
        late,
        "Late" + name,
        sinks.late(),
        new Lines<>(JsonLines::late, record -> position(record.value().source()), TableLayout.LATE),
        sinks);
  }

  /** Writes dead letters as JSON lines, each keyed by where it came from, if known. */
  public static void deadLetters(PCollection<DeadLetter> dead, OutputSinks sinks) {
    dead.apply("WriteDeadLetters", sinks.deadLetters().write("deadLetters", deadLetterLines()));
  }

  /**
   * Writes {@code elements} as the output {@code name} to {@code sink}; what its server refuses
   * goes to the dead letters of {@code sinks}.
   */
  private static <T> void write(
      PCollection<T> elements, String name, Sink sink, Lines<T> lines, OutputSinks sinks) {
    String output = Character.toLowerCase(name.charAt(0)) + name.substring(1);
    Optional<PTransform<PCollection<T>, PCollection<DeadLetter>>> refusing =
        sink.writeRefusing(output, lines);
    if (refusing.isEmpty()) {
      elements.apply("Write" + name, sink.write(output, lines));
      return;
    }
    elements
        .apply("Write" + name, refusing.get())
        .apply(
            "WriteRefused" + name, sinks.deadLetters().write("refused" + name, deadLetterLines()));
  }

  private static Lines<DeadLetter> deadLetterLines() {
    return new Lines<>(
        JsonLines::deadLetter, letter -> position(letter.source()), TableLayout.DEAD_LETTERS);
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
