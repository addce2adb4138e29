package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/** The DoFn of {@link ParseEvents}: a record's text, with the watermark its source met. */
final class ParseEventFn extends DoFn<KV<String, Instant>, Event> {

  private final Counter recordsIn = Metrics.counter("tidemark", "recordsIn");
  private final Counter deadLetters = Metrics.counter("tidemark", "deadLetters");
  private final EventFormat format;

  ParseEventFn(EventFormat format) {
    this.format = format;
  }

  @ProcessElement
  public void processElement(
      @Element KV<String, Instant> record,
      @Timestamp Instant sourceTimestamp,
      MultiOutputReceiver out) {
    recordsIn.inc();
    String raw = record.getKey();
    try {
      Event event = format.parse(raw).arrivedAt(record.getValue());
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
      out.get(ParseEvents.DEAD_LETTER).output(new DeadLetter(raw, e.getMessage()));
    }
  }
}
