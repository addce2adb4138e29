package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.Event;
import org.joda.time.Instant;

/**
 * Turns one text record into tidemark's own {@link Event}, or says why it cannot: the {@link
 * RecordFormat} of the ready pipelines, whose events carry where and when they arrived.
 */
public interface EventFormat extends RecordFormat<Event> {

  /**
   * Parses {@code raw}.
   *
   * @throws BadRecordException with the reason, when a field is missing or malformed
   */
  @Override
  Event parse(String raw) throws BadRecordException;

  @Override
  default Instant eventTime(Event event) {
    return event.eventTime();
  }

  /**
   * The event in {@code line}, parsed by its source already when it could be, with the watermark,
   * position and Kafka position it arrived at.
   */
  @Override
  default Event parse(ArrivedLine line) throws BadRecordException {
    // A replayed line comes parsed by its source; a line that could not be parsed there is
    // parsed again here, for the reason.
    Event parsed = line.parsed() != null ? line.parsed() : parse(line.text());
    return parsed.arrivedAs(line);
  }
}
