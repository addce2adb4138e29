package dev.tidemark.transforms.windowing;

import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;

/**
 * What a record is to its window, judged by a watermark: the one rule of lateness. {@link
 * PaneEngine} applies it to the watermark that judges a record (a live step's input watermark, or
 * the watermark a replayed record met at its source), and so does {@code explain}.
 */
public enum Arrival {
  /** The watermark had not reached the window's end: the record is in an EARLY or ON_TIME pane. */
  ON_TIME,
  /** The window had closed but not expired: the record adds a LATE pane. */
  LATE_WITHIN_LATENESS,
  /** The window had expired: the record goes to the late output. */
  EXPIRED;

  /** How a record of {@code window} that met {@code watermark} arrived. */
  public static Arrival of(EventTimeWindowing windowing, IntervalWindow window, Instant watermark) {
    if (windowing.isExpired(window, watermark)) {
      return EXPIRED;
    }
    return watermark.isBefore(window.end()) ? ON_TIME : LATE_WITHIN_LATENESS;
  }
}
