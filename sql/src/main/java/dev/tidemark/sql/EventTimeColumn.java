package dev.tidemark.sql;

import dev.tidemark.transforms.parse.BadRecordException;
import java.io.Serializable;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where each record's event time comes from: the text of one of its columns, read as the table's
 * definition says. From {@code --eventTime}, epoch milliseconds or a timestamp; from a Flink {@code
 * CREATE TABLE}, a {@code TIMESTAMP} column, or {@code TO_TIMESTAMP_LTZ(column, 3)} (epoch
 * milliseconds), {@code TO_TIMESTAMP_LTZ(column, 0)} (epoch seconds) or {@code TO_TIMESTAMP(column
 * [, format])} (a local date and time in the query's zone).
 */
final class EventTimeColumn implements Serializable {

  private static final long serialVersionUID = 1L;

  /** How the column's text is read. */
  enum Reading {
    /** As a {@code TIMESTAMP} column's value: epoch milliseconds or a timestamp. */
    TIMESTAMP,
    /** Epoch seconds, as {@code TO_TIMESTAMP_LTZ(column, 0)} reads them. */
    EPOCH_SECONDS,
    /** A local date and time in the query's zone, as {@code TO_TIMESTAMP(column, format)}. */
    FORMATTED
  }

  private final int column;
  private final String name;
  private final Reading reading;
  private final @Nullable String pattern;

  EventTimeColumn(int column, String name, Reading reading, @Nullable String pattern) {
    this.column = column;
    this.name = name;
    this.reading = reading;
    this.pattern = pattern;
  }

  /** Where the column is among the record's columns. */
  int column() {
    return column;
  }

  /** The column's name. */
  String name() {
    return name;
  }

  /** Whether the column is read as a {@code TIMESTAMP} is: epoch milliseconds, or a time's text. */
  boolean readsTimestamps() {
    return reading == Reading.TIMESTAMP;
  }

  /**
   * The event time in {@code text}, in epoch milliseconds.
   *
   * @throws BadRecordException naming the column, when the text is not a time as it is read here
   */
  long epochMillis(String text, ZoneId zone) throws BadRecordException {
    return switch (reading) {
      case TIMESTAMP -> (Long) ColumnType.TIMESTAMP.parse(name, text, zone);
      case EPOCH_SECONDS -> Math.multiplyExact((Long) ColumnType.BIGINT.parse(name, text), 1000L);
      case FORMATTED -> formatted(text, zone);
    };
  }

  private long formatted(String text, ZoneId zone) throws BadRecordException {
    try {
      return LocalDateTime.parse(text.trim(), DateTimeFormatter.ofPattern(pattern, Locale.ROOT))
          .atZone(zone)
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new BadRecordException(
          "field '" + name + "': '" + text + "' is not a time of the form '" + pattern + "'");
    }
  }
}
