package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The DoFn of {@link ParseRecords}: a line's record, emitted at its event time, or its dead letter.
 */
final class ParseRecordFn<T> extends DoFn<ArrivedLine, T> {

  private final CountedParse<T> parse;
  private final TupleTag<T> records;
  private final TupleTag<DeadLetter> deadLetters;

  ParseRecordFn(
      ArrivedLineParser<T> parser, TupleTag<T> records, TupleTag<DeadLetter> deadLetters) {
    this.parse = new CountedParse<>(parser);
    this.records = records;
    this.deadLetters = deadLetters;
  }

  @ProcessElement
  public void processElement(
      @Element ArrivedLine line, @Timestamp Instant sourceTimestamp, MultiOutputReceiver out) {
    parse.countIn(1);
    @Nullable TimestampedValue<T> record =
        parse.parse(line, sourceTimestamp, Instant.now(), out.get(deadLetters)::output);
    if (record != null) {
      out.get(records).outputWithTimestamp(record.getValue(), record.getTimestamp());
    }
  }
}
