package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.joda.time.Instant;

/** The DoFn of {@link ParseEvents}: a record's text, with the watermark its source met. */
final class ParseEventFn extends DoFn<ArrivedLine, Event> {

  private final Counter recordsIn = TidemarkMetrics.recordsIn();
  private final Counter deadLetters = TidemarkMetrics.deadLetters();
  private final EventFormat format;
  private final ClockSkewGuard clockSkewGuard;
  private final boolean atEventTime;

  ParseEventFn(EventFormat format, ClockSkewGuard clockSkewGuard, boolean atEventTime) {
    this.format = format;
    this.clockSkewGuard = clockSkewGuard;
    this.atEventTime = atEventTime;
  }

  @ProcessElement
  public void processElement(
      @Element ArrivedLine line, @Timestamp Instant sourceTimestamp, MultiOutputReceiver out) {
    recordsIn.inc();
    try {
      Event event = parse(line, sourceTimestamp, Instant.now());
      out.get(ParseEvents.EVENTS)
          .outputWithTimestamp(event, atEventTime ? event.eventTime() : sourceTimestamp);
    } catch (BadRecordException e) {
      deadLetters.inc();
      out.get(ParseEvents.DEAD_LETTER)
          .output(new DeadLetter(line.text(), e.getMessage(), line.source()));
    }
  }

  private Event parse(ArrivedLine line, Instant sourceTimestamp, Instant now)
      throws BadRecordException {
    // A replayed line comes parsed by its source; a line that could not be parsed there is
    // parsed again here, for the reason.
    Event parsed = line.parsed() != null ? line.parsed() : format.parse(line.text());
    Event event = parsed.arrivedAs(line);
    if (clockSkewGuard.isTooFarAhead(event.eventTime(), now)) {
      throw new BadRecordException(clockSkewGuard.reason(event.eventTime(), now));
    }
    if (atEventTime && event.eventTime().isBefore(sourceTimestamp)) {
      throw new BadRecordException(
          "event time "
              + event.eventTime().getMillis()
              + " is before the timestamp "
              + sourceTimestamp.getMillis()
              + " the source gave the record; give the source the same event-time field");
    }
    return event;
  }
}
