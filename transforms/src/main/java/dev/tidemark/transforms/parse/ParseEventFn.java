package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.Event;
import org.apache.beam.sdk.transforms.DoFn;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/** The DoFn of {@link ParseEvents}: a record's text, emitted at its event time. */
final class ParseEventFn extends DoFn<ArrivedLine, Event> {

  private final CountedParse parse;

  ParseEventFn(ArrivedLineParser parser) {
    this.parse = new CountedParse(parser);
  }

  @ProcessElement
  public void processElement(
      @Element ArrivedLine line, @Timestamp Instant sourceTimestamp, MultiOutputReceiver out) {
    parse.countIn(1);
    @Nullable Event event =
        parse.parse(line, sourceTimestamp, Instant.now(), out.get(ParseEvents.DEAD_LETTER)::output);
    if (event != null) {
      out.get(ParseEvents.EVENTS).outputWithTimestamp(event, event.eventTime());
    }
  }
}
