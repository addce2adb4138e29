package dev.tidemark.transforms.io;

import dev.tidemark.transforms.watermark.Watermarks;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/** Functions that find the event time in a text line, returning null when it has none. */
public final class LineEventTimes {

  private LineEventTimes() {}

  /**
   * Epoch milliseconds in field {@code index} (from 0) of a comma-separated line, like the {@code
   * 01,1586489566000} lines of scenario S1. Null when the field is missing, is not a whole number,
   * or lies outside Beam's timestamp range.
   */
  public static SerializableFunction<String, @Nullable Instant> csvEpochMillis(int index) {
    if (index < 0) {
      throw new IllegalArgumentException(
          "CSV field index: " + index + " is negative; fields are numbered from 0");
    }
    return line -> {
      String[] fields = line.split(",", -1);
      if (index >= fields.length) {
        return null;
      }
      long millis;
      try {
        millis = Long.parseLong(fields[index].trim());
      } catch (NumberFormatException e) {
        return null;
      }
      Instant eventTime = new Instant(millis);
      return Watermarks.clamp(eventTime).equals(eventTime) ? eventTime : null;
    };
  }
}
