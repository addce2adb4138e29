package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.windowing.Expired;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Instant;

/**
 * A late event as a test compares it: its key, event time, window, the watermark it met and its
 * text, and not what else its source knew of it (the arrival watermark, the line).
 */
public final class LateText {

  private LateText() {}

  /** The text of a late event with these fields. */
  public static String of(
      EventKey key, Instant eventTime, IntervalWindow window, Instant watermark, String raw) {
    return key
        + " at "
        + eventTime.getMillis()
        + " in "
        + window
        + " met "
        + watermark.getMillis()
        + ": "
        + raw;
  }

  /** The text of {@code late}. */
  public static String of(Expired<Event> late) {
    return of(
        late.value().key(), late.eventTime(), late.window(), late.watermark(), late.value().raw());
  }

  /** Each late event as its text. */
  public static MapElements<Expired<Event>, String> each() {
    return MapElements.into(TypeDescriptors.strings()).via(LateText::of);
  }
}
