package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;

/**
 * What a replayed record is to its window, judged by the watermark it met at its source: the one
 * rule that both the replay's pipeline ({@link GatherWindowRecordsFn}) and its explanation ({@link
 * ExplainReplay}) apply.
 */
public enum Arrival {
  /** The watermark had not reached the window's end: the record is in the ON_TIME pane. */
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
