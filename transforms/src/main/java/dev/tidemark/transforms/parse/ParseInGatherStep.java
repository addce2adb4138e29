package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.windowing.RecordParser;
import java.util.function.Consumer;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The parse of {@link ParseRecords#inTheGatheringStep}: each record of a batch parsed one by one in
 * the step that gathers the batch, its value at its event time, or its dead letter to the step's
 * rejected output. The records of a batch are counted in at once. A join's parse step of its own
 * ({@link ParseEvents#inBatches}) runs the same parse.
 */
final class ParseInGatherStep<InputT, T> implements RecordParser<InputT, T, DeadLetter> {

  private static final long serialVersionUID = 1L;

  private final CountedParse<T> parse;
  private final SerializableFunction<InputT, ArrivedLine> toArrivedLine;

  ParseInGatherStep(
      ArrivedLineParser<T> parser, SerializableFunction<InputT, ArrivedLine> toArrivedLine) {
    this.parse = new CountedParse<>(parser);
    this.toArrivedLine = toArrivedLine;
  }

  @Override
  public void batchOf(int records) {
    parse.countIn(records);
  }

  @Override
  public @Nullable TimestampedValue<T> parse(
      TimestampedValue<InputT> record, Instant now, Consumer<DeadLetter> rejected) {
    return parse.parse(
        toArrivedLine.apply(record.getValue()), record.getTimestamp(), now, rejected);
  }
}
