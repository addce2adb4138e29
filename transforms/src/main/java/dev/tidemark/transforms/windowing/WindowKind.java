package dev.tidemark.transforms.windowing;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Which windows a record belongs to: tumbling, sliding or cumulating windows, all aligned to the
 * epoch, as Flink SQL 1.19's {@code TUMBLE}, {@code HOP} and {@code CUMULATE} window table
 * functions define them, or sessions, which merge as records come and have no slices. The first
 * three are cut into <em>slices</em>, the largest spans that no window boundary crosses, so a
 * record is in exactly one slice and a window is a run of whole slices:
 *
 * <ul>
 *   <li>tumbling windows of {@code size}: a slice is a window;
 *   <li>sliding windows of {@code size} every {@code slide}: a slice is their greatest common
 *       divisor, and a window is {@code size / slice} slices; a record is in {@code size / slide}
 *       windows;
 *   <li>cumulating windows of up to {@code maxSize} growing by {@code step}: every window starts
 *       where a tumbling window of {@code maxSize} starts and ends at a multiple of {@code step}
 *       after it, so a slice is a step, and a window is the slices from its start to its end.
 * </ul>
 *
 * <p>A window is named by its end: no two windows of one kind end at the same instant, while
 * cumulating windows share their starts. The pane step keeps one accumulator per slice and merges a
 * window's slices when it decides a pane ({@link SlicedPanesFn}), so its state grows with the
 * slices a key has open, never with windows times records.
 */
public final class WindowKind implements Serializable {

  private static final long serialVersionUID = 1L;

  /** The shapes of window this class knows. */
  public enum Shape {
    TUMBLING,
    SLIDING,
    CUMULATING,
    SESSIONS
  }

  private final Shape shape;
  private final long sizeMillis;
  private final long slideMillis;
  private final long sliceMillis;

  private WindowKind(Shape shape, long sizeMillis, long slideMillis, long sliceMillis) {
    this.shape = shape;
    this.sizeMillis = sizeMillis;
    this.slideMillis = slideMillis;
    this.sliceMillis = sliceMillis;
  }

  /** Tumbling windows of {@code size}. */
  static WindowKind tumbling(Duration size) {
    long millis = positive("window size", size);
    return new WindowKind(Shape.TUMBLING, millis, millis, millis);
  }

  /** Windows of {@code size} starting every {@code slide}. */
  static WindowKind sliding(Duration size, Duration slide) {
    long sizeMillis = positive("window size", size);
    long slideMillis = positive("window slide", slide);
    if (slideMillis > sizeMillis) {
      throw new IllegalArgumentException(
          "window slide: "
              + slide
              + " is longer than the window size "
              + size
              + "; a slide must be at most the size, or records between windows belong to none");
    }
    return new WindowKind(
        Shape.SLIDING, sizeMillis, slideMillis, greatestCommonDivisor(sizeMillis, slideMillis));
  }

  /**
   * Windows that start every {@code maxSize} and grow by {@code step} until they are {@code
   * maxSize}.
   */
  static WindowKind cumulating(Duration step, Duration maxSize) {
    long stepMillis = positive("window step", step);
    long sizeMillis = positive("window size", maxSize);
    if (sizeMillis % stepMillis != 0) {
      throw new IllegalArgumentException(
          "window step: the window size "
              + maxSize
              + " is not a whole number of steps of "
              + step
              + "; use a step that divides the size");
    }
    return new WindowKind(Shape.CUMULATING, sizeMillis, stepMillis, stepMillis);
  }

  /**
   * Session windows of {@code gap}: a record opens {@code [t, t + gap)}, and a key's windows that
   * overlap or touch merge into one ({@link SessionPanesFn}). They have no slices.
   */
  static WindowKind sessions(Duration gap) {
    long millis = positive("session gap", gap);
    return new WindowKind(Shape.SESSIONS, millis, millis, millis);
  }

  /** Whether windows merge as records come: sessions. */
  public boolean merges() {
    return shape == Shape.SESSIONS;
  }

  private static long positive(String what, Duration duration) {
    if (duration == null || duration.getMillis() <= 0) {
      throw new IllegalArgumentException(
          what + ": " + duration + " is not allowed; use a positive duration, e.g. 5s");
    }
    return duration.getMillis();
  }

  private static long greatestCommonDivisor(long a, long b) {
    return b == 0 ? a : greatestCommonDivisor(b, a % b);
  }

  public Shape shape() {
    return shape;
  }

  /** The window size; for cumulating windows, the largest one's. */
  public Duration size() {
    return Duration.millis(sizeMillis);
  }

  /**
   * How far apart windows end: the size for tumbling windows, the slide for sliding ones, the step
   * for cumulating ones.
   */
  public Duration slide() {
    return Duration.millis(slideMillis);
  }

  /** The length of a slice. */
  public Duration slice() {
    return Duration.millis(sliceMillis);
  }

  /** The slice that holds {@code eventTime}. */
  public IntervalWindow sliceOf(Instant eventTime) {
    long start = Math.floorDiv(eventTime.getMillis(), sliceMillis) * sliceMillis;
    return new IntervalWindow(new Instant(start), new Instant(start + sliceMillis));
  }

  /** The window that ends at {@code end}, which must be a window end of this kind. */
  public IntervalWindow windowEndingAt(Instant end) {
    long endMillis = end.getMillis();
    long start =
        shape == Shape.CUMULATING
            ? Math.floorDiv(endMillis - 1, sizeMillis) * sizeMillis
            : endMillis - sizeMillis;
    return new IntervalWindow(new Instant(start), end);
  }

  /** Every window that holds the slice starting at {@code sliceStart}, the earliest end first. */
  public List<IntervalWindow> windowsOfSlice(Instant sliceStart) {
    List<IntervalWindow> windows = new ArrayList<>();
    for (long end = firstWindowEndMillis(sliceStart.getMillis());
        end <= lastWindowEndMillis(sliceStart.getMillis());
        end += slideMillis) {
      windows.add(windowEndingAt(new Instant(end)));
    }
    return windows;
  }

  /** The end of the earliest window that holds the slice starting at {@code sliceStart}. */
  public Instant firstWindowEndOfSlice(Instant sliceStart) {
    return new Instant(firstWindowEndMillis(sliceStart.getMillis()));
  }

  /**
   * The end of the latest window that holds the slice starting at {@code sliceStart}: once that
   * window is done, nothing reads the slice again.
   */
  public Instant lastWindowEndOfSlice(Instant sliceStart) {
    return new Instant(lastWindowEndMillis(sliceStart.getMillis()));
  }

  private long firstWindowEndMillis(long sliceStart) {
    if (shape == Shape.CUMULATING) {
      // A step is a slice: the first window that holds it ends where it ends.
      return sliceStart + sliceMillis;
    }
    // The earliest window start s, a multiple of the slide, with s + size >= the slice's end.
    long earliestStart = -Math.floorDiv(-(sliceStart + sliceMillis - sizeMillis), slideMillis);
    return earliestStart * slideMillis + sizeMillis;
  }

  private long lastWindowEndMillis(long sliceStart) {
    if (shape == Shape.CUMULATING) {
      return Math.floorDiv(sliceStart, sizeMillis) * sizeMillis + sizeMillis;
    }
    // The latest window that holds the slice starts at the last window start at or before it.
    return Math.floorDiv(sliceStart, slideMillis) * slideMillis + sizeMillis;
  }

  /** The starts of the slices that make up {@code window}, earliest first. */
  public List<Instant> slicesOf(IntervalWindow window) {
    List<Instant> starts = new ArrayList<>();
    for (long start = window.start().getMillis();
        start < window.end().getMillis();
        start += sliceMillis) {
      starts.add(new Instant(start));
    }
    return starts;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WindowKind kind
        && kind.shape == shape
        && kind.sizeMillis == sizeMillis
        && kind.slideMillis == slideMillis;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(sizeMillis * 31 + slideMillis) * 3 + shape.ordinal();
  }

  @Override
  public String toString() {
    switch (shape) {
      case SLIDING:
        return "sliding{size=" + size() + ", slide=" + slide() + "}";
      case CUMULATING:
        return "cumulating{step=" + slide() + ", maxSize=" + size() + "}";
      case SESSIONS:
        return "sessions{gap=" + size() + "}";
      default:
        return "tumbling{size=" + size() + "}";
    }
  }
}
