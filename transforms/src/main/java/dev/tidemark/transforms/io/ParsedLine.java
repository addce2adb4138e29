package dev.tidemark.transforms.io;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.RecordFormat;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * A recorded line as the replay's reader parsed it, for its event time: the record and when it
 * happened.
 *
 * @param <T> what the line was parsed into
 */
record ParsedLine<T>(T record, Instant eventTime) {

  /** The line parsed by {@code format}, or null when the format cannot parse it. */
  static <T> @Nullable ParsedLine<T> of(RecordFormat<T> format, String line) {
    try {
      T record = format.parse(line);
      return new ParsedLine<>(record, format.eventTime(record));
    } catch (BadRecordException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The record, when it is tidemark's own event, which the parse step then does not parse again.
   */
  @Nullable Event event() {
    return record instanceof Event event ? event : null;
  }
}
