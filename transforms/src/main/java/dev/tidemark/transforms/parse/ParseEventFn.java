package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.joda.time.Instant;

/** The DoFn of {@link ParseEvents}: a record's text, emitted at its event time. */
final class ParseEventFn extends DoFn<ArrivedLine, Event> {

  private final Counter recordsIn = TidemarkMetrics.recordsIn();
  private final Counter deadLetters = TidemarkMetrics.deadLetters();
  private final Counter inAnotherFormat = TidemarkMetrics.inAnotherFormat();
  private final ArrivedLineParser parser;

  ParseEventFn(ArrivedLineParser parser) {
    this.parser = parser;
  }

  @ProcessElement
  public void processElement(
      @Element ArrivedLine line, @Timestamp Instant sourceTimestamp, MultiOutputReceiver out) {
    recordsIn.inc();
    try {
      Event event = parser.parse(line, Instant.now());
      if (event.eventTime().isBefore(sourceTimestamp)) {
        throw new BadRecordException(
            "event time "
                + event.eventTime().getMillis()
                + " is before the timestamp "
                + sourceTimestamp.getMillis()
                + " the source gave the record; give the source the same event-time field");
      }
      out.get(ParseEvents.EVENTS).outputWithTimestamp(event, event.eventTime());
    } catch (BadRecordException e) {
      deadLetters.inc();
      if (parser.anotherFormat(line) != null) {
        inAnotherFormat.inc();
      }
      out.get(ParseEvents.DEAD_LETTER)
          .output(new DeadLetter(line.text(), e.getMessage(), line.source()));
    }
  }
}
