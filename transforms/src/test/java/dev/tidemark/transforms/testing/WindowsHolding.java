package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.WindowKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The windows {@code [start, end)} that hold an event time, found by trying every candidate start
 * near it, as Flink SQL's window functions define them: tumbling and sliding windows start at
 * multiples of their slide; cumulating windows start at multiples of their largest size and end at
 * every step after. A reference for tests: it reads only the configuration's sizes, never the slice
 * arithmetic under test.
 */
public final class WindowsHolding {

  private WindowsHolding() {}

  /** Each window of {@code windowing}'s kind that holds {@code eventTime}, earliest end first. */
  public static List<long[]> of(EventTimeWindowing windowing, long eventTime) {
    WindowKind kind = windowing.kind();
    long size = kind.size().getMillis();
    long every = kind.slide().getMillis();
    List<long[]> windows = new ArrayList<>();
    if (kind.shape() == WindowKind.Shape.CUMULATING) {
      long start = eventTime - Math.floorMod(eventTime, size);
      for (long end = start + every; end <= start + size; end += every) {
        if (eventTime < end) {
          windows.add(new long[] {start, end});
        }
      }
      return windows;
    }
    for (long start = eventTime - size + 1; start <= eventTime; start++) {
      if (Math.floorMod(start, every) == 0) {
        windows.add(new long[] {start, start + size});
      }
    }
    return windows;
  }

  /**
   * Whether the window ending at {@code end} has expired under {@code watermark}: its last
   * millisecond plus the allowed lateness is behind it.
   */
  public static boolean expired(EventTimeWindowing windowing, long end, long watermark) {
    return end - 1 + windowing.allowedLateness().getMillis() < watermark;
  }
}
