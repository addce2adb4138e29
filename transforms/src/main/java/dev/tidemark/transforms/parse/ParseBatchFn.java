package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourceBatch;
import java.util.function.Consumer;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The DoFn of {@link ParseEvents#inBatches}: a batch's records parsed one by one, its events as one
 * batch with the same watermark bound, each at its event time, and its dead letters one by one.
 */
final class ParseBatchFn<InputT> extends DoFn<SourceBatch<InputT>, SourceBatch<Event>> {

  private final CountedParse parse;
  private final SerializableFunction<InputT, ArrivedLine> toArrivedLine;

  ParseBatchFn(ArrivedLineParser parser, SerializableFunction<InputT, ArrivedLine> toArrivedLine) {
    this.parse = new CountedParse(parser);
    this.toArrivedLine = toArrivedLine;
  }

  @ProcessElement
  public void processElement(@Element SourceBatch<InputT> batch, MultiOutputReceiver out) {
    Consumer<DeadLetter> dead = out.get(ParseEvents.DEAD_LETTER)::output;
    parse.countIn(batch.records().size());
    Instant now = Instant.now();
    SourceBatch<Event> events =
        batch.map(
            record -> {
              @Nullable Event event =
                  parse.parse(
                      toArrivedLine.apply(record.getValue()), record.getTimestamp(), now, dead);
              return event == null ? null : TimestampedValue.of(event, event.eventTime());
            });
    if (!events.records().isEmpty()) {
      out.get(ParseEvents.EVENT_BATCHES).output(events);
    }
  }
}
