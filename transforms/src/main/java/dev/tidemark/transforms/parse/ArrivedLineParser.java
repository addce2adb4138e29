package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import java.io.Serializable;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Turns an {@link ArrivedLine} into the {@link Event} it holds, with what its source knew when it
 * read it, or says why it cannot: the format cannot parse it, or {@link ClockSkewGuard} refuses its
 * event time (too far ahead of the wall clock, or before 1973: seconds or a placeholder). The one
 * parse rule of {@link ParseEvents} and of the replay's windowing.
 */
public final class ArrivedLineParser implements Serializable {

  private static final long serialVersionUID = 1L;

  private final EventFormat format;
  private final ClockSkewGuard clockSkewGuard;

  private ArrivedLineParser(EventFormat format, ClockSkewGuard clockSkewGuard) {
    this.format = format;
    this.clockSkewGuard = clockSkewGuard;
  }

  /** Parses with {@code format}, refusing event times further ahead than {@code clockSkewGuard}. */
  public static ArrivedLineParser of(EventFormat format, ClockSkewGuard clockSkewGuard) {
    return new ArrivedLineParser(format, clockSkewGuard);
  }

  /**
   * What {@code line}, a dead letter, looks like instead, if it looks written in another format
   * ({@link EventFormat#anotherFormat}); null otherwise.
   */
  public @Nullable String anotherFormat(ArrivedLine line) {
    return line.deadReason() == null ? format.anotherFormat(line.text()) : null;
  }

  /**
   * The {@code --format} that reads {@code line}, a dead letter, if it looks written in another
   * format ({@link EventFormat#formatThatReads}); null otherwise.
   */
  public @Nullable String formatThatReads(ArrivedLine line) {
    return line.deadReason() == null ? format.formatThatReads(line.text()) : null;
  }

  /**
   * The event in {@code line}, as of the wall-clock time {@code now}.
   *
   * @throws BadRecordException with the reason, when the line cannot be used
   */
  public Event parse(ArrivedLine line, Instant now) throws BadRecordException {
    if (line.deadReason() != null) {
      throw new BadRecordException(line.deadReason());
    }
    // A replayed line comes parsed by its source; a line that could not be parsed there is
    // parsed again here, for the reason.
    Event parsed = line.parsed() != null ? line.parsed() : format.parse(line.text());
    Event event = parsed.arrivedAs(line);
    if (clockSkewGuard.refuses(event.eventTime(), now)) {
      throw new BadRecordException(clockSkewGuard.reason(event.eventTime(), now));
    }
    return event;
  }
}
