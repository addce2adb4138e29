package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.watermark.Watermarks;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.joda.time.Instant;

/** Checks event times for the formats: epoch milliseconds inside the range Beam can window. */
public final class EventTimes {

  private EventTimes() {}

  /**
   * {@code text} as epoch milliseconds.
   *
   * @throws BadRecordException if it is not a whole number, or not a time Beam can window (before
   *     Beam's minimum timestamp, or after the end of the global window)
   */
  public static Instant parse(String field, String text) throws BadRecordException {
    long millis;
    try {
      millis = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new BadRecordException(
          "field '" + field + "': '" + text + "' is not an epoch-millisecond timestamp");
    }
    return check(field, millis);
  }

  public static Instant check(String field, long millis) throws BadRecordException {
    Instant eventTime = new Instant(millis);
    if (eventTime.isBefore(Watermarks.MIN)
        || eventTime.isAfter(GlobalWindow.INSTANCE.maxTimestamp())) {
      throw new BadRecordException(
          "field '" + field + "': " + millis + " is outside the timestamps Beam can window");
    }
    return eventTime;
  }
}
