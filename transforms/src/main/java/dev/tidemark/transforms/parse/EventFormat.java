package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.Event;
import java.io.Serializable;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/** Turns one text record into an {@link Event}, or says why it cannot. */
public interface EventFormat extends Serializable {

  /**
   * Parses {@code raw}.
   *
   * @throws BadRecordException with the reason, when a field is missing or malformed
   */
  Event parse(String raw) throws BadRecordException;

  /**
   * What {@code raw}, which this format cannot parse, looks like instead, and which format reads
   * it: a hint for a user who named the wrong format (a JSON file read as CSV); null when it looks
   * like no other format.
   */
  default @Nullable String anotherFormat(String raw) {
    return null;
  }

  /**
   * The {@code --format} ({@code json} or {@code csv}) that reads {@code raw}, which this format
   * cannot parse, when it looks written in that one ({@link #anotherFormat}); null otherwise.
   */
  default @Nullable String formatThatReads(String raw) {
    return null;
  }

  /** The event time this format finds in a record, or null when it cannot parse the record. */
  default SerializableFunction<String, @Nullable Instant> eventTimes() {
    return raw -> {
      try {
        return parse(raw).eventTime();
      } catch (BadRecordException e) {
        return null;
      }
    };
  }
}
