package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import java.io.Serializable;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Turns an {@link ArrivedLine} into the record it holds, or says why it cannot: its source cut it
 * ({@link ArrivedLine#deadReason()}), the format cannot parse it, or {@link ClockSkewGuard} refuses
 * its event time (too far ahead of the wall clock, or before 1973: seconds or a placeholder). The
 * one parse rule of {@link ParseRecords}, {@link ParseEvents} and the replay's windowing.
 *
 * @param <T> what a record is parsed into
 */
public final class ArrivedLineParser<T> implements Serializable {

  private static final long serialVersionUID = 1L;

  private final RecordFormat<T> format;
  private final ClockSkewGuard clockSkewGuard;

  private ArrivedLineParser(RecordFormat<T> format, ClockSkewGuard clockSkewGuard) {
    this.format = format;
    this.clockSkewGuard = clockSkewGuard;
  }

  /** Parses with {@code format}, refusing event times further ahead than {@code clockSkewGuard}. */
  public static <T> ArrivedLineParser<T> of(RecordFormat<T> format, ClockSkewGuard clockSkewGuard) {
    return new ArrivedLineParser<>(format, clockSkewGuard);
  }

  /** The event time of {@code record}, which this parser gave. */
  public Instant eventTime(T record) {
    return format.eventTime(record);
  }

  /**
   * What {@code line}, a dead letter, looks like instead, if it looks written in another format
   * ({@link RecordFormat#anotherFormat}); null otherwise.
   */
  public @Nullable String anotherFormat(ArrivedLine line) {
    return line.deadReason() == null ? format.anotherFormat(line.text()) : null;
  }

  /**
   * The {@code --format} that reads {@code line}, a dead letter, if it looks written in another
   * format ({@link RecordFormat#formatThatReads}); null otherwise.
   */
  public @Nullable String formatThatReads(ArrivedLine line) {
    return line.deadReason() == null ? format.formatThatReads(line.text()) : null;
  }

  /**
   * The record in {@code line}, as of the wall-clock time {@code now}.
   *
   * @throws BadRecordException with the reason, when the line cannot be used
   */
  public T parse(ArrivedLine line, Instant now) throws BadRecordException {
    if (line.deadReason() != null) {
      throw new BadRecordException(line.deadReason());
    }
    T record = format.parse(line);
    Instant eventTime = format.eventTime(record);
    if (clockSkewGuard.refuses(eventTime, now)) {
      throw new BadRecordException(clockSkewGuard.reason(eventTime, now));
    }
    return record;
  }
}
