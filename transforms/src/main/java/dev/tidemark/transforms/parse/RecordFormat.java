package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import java.io.Serializable;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Turns one text record into a value of your own type, or says why it cannot, and tells the value's
 * event time: what {@link ParseRecords} and a replay ({@code Replay.ofRecords}) need to give your
 * type every guarantee tidemark gives its own {@code Event}, which is one such format ({@link
 * EventFormat}).
 *
 * <pre>{@code
 * RecordFormat<Click> clicks = RecordFormat.json(Click.class, click -> new Instant(click.tsMillis()));
 * RecordFormat<Click> csv = RecordFormat.of(Click::fromCsv, click -> new Instant(click.tsMillis()));
 * }</pre>
 *
 * <p>A record the format cannot use throws {@link BadRecordException} with the reason; it becomes a
 * dead letter with that reason, and the pipeline goes on. Any other exception is a bug of the
 * format and fails the pipeline.
 *
 * @param <T> what a record is parsed into
 */
public interface RecordFormat<T> extends Serializable {

  /**
   * Parses {@code raw}.
   *
   * @throws BadRecordException with the reason, when a field is missing or malformed
   */
  T parse(String raw) throws BadRecordException;

  /** When {@code record} happened. */
  Instant eventTime(T record);

  /**
   * Parses {@code line} as its source read it; by default its text. A format whose records its
   * source parses already, to read their event times, takes the parsed record from the line.
   *
   * @throws BadRecordException with the reason, when a field is missing or malformed
   */
  default T parse(ArrivedLine line) throws BadRecordException {
    return parse(line.text());
  }

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

  /**
   * The type this format parses into, when it knows it ({@link #json} does): then {@link
   * ParseRecords} and a replay infer the record's coder ({@link InferredCoder}) and need none
   * given; null otherwise.
   */
  default @Nullable TypeDescriptor<T> recordType() {
    return null;
  }

  /** The event time this format finds in a record, or null when it cannot parse the record. */
  default SerializableFunction<String, @Nullable Instant> eventTimes() {
    return raw -> {
      try {
        return eventTime(parse(raw));
      } catch (BadRecordException e) {
        return null;
      }
    };
  }

  /** A format that parses with {@code parse} and finds event times with {@code eventTime}. */
  static <T> RecordFormat<T> of(TextParser<T> parse, SerializableFunction<T, Instant> eventTime) {
    return new TextRecordFormat<>(parse, eventTime, null);
  }

  /**
   * JSON objects read into {@code type} by Jackson (a Java record reads its components by name), at
   * the event time {@code eventTime} finds in each. A line that is not JSON, or does not fit {@code
   * type}, is a dead letter with Jackson's reason.
   */
  static <T> RecordFormat<T> json(Class<T> type, SerializableFunction<T, Instant> eventTime) {
    return new TextRecordFormat<>(new JsonRecordReader<>(type), eventTime, TypeDescriptor.of(type));
  }

  /** Parses one text record, or says why it cannot. */
  @FunctionalInterface
  interface TextParser<T> extends Serializable {

    /**
     * The record in {@code raw}.
     *
     * @throws BadRecordException with the reason, when the record cannot be used
     */
    T parse(String raw) throws BadRecordException;
  }
}
