package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.windowing.RecordParser;
import java.util.function.Consumer;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The DoFn of {@link ParseEvents#inBatches}: each record of a batch parsed by the same {@link
 * RecordParser} as the counting step's, its event emitted alone at its event time.
 */
final class ParseBatchRecordsFn<InputT> extends DoFn<SourceBatch<InputT>, Event> {

  private final RecordParser<InputT, Event, DeadLetter> parser;

  ParseBatchRecordsFn(RecordParser<InputT, Event, DeadLetter> parser) {
    this.parser = parser;
  }

  @ProcessElement
  public void processElement(@Element SourceBatch<InputT> batch, MultiOutputReceiver out) {
    Consumer<DeadLetter> dead = out.get(ParseEvents.DEAD_LETTER)::output;
    parser.batchOf(batch.records().size());
    Instant now = Instant.now();
    for (TimestampedValue<InputT> record : batch.records()) {
      @Nullable TimestampedValue<Event> event = parser.parse(record, now, dead);
      if (event != null) {
        out.get(ParseEvents.EVENTS).outputWithTimestamp(event.getValue(), event.getTimestamp());
      }
    }
  }
}
