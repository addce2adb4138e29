package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.WindowKind;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Never;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.transforms.windowing.Window.ClosingBehavior;
import org.apache.beam.sdk.transforms.windowing.Window.OnTimeBehavior;
import org.apache.beam.sdk.transforms.windowing.WindowFn;

/**
 * Beam's own trigger over an {@link EventTimeWindowing}'s windows: the specification the pane
 * engine is held to ({@link PresetCountPerWindow}). Its panes are the engine's, grouped as Beam
 * groups them:
 *
 * <ul>
 *   <li>an ON_TIME pane when the watermark passes the end of the window, always;
 *   <li>an EARLY pane the idle flush after the first element of a pane, whatever the watermark (the
 *       engine waits that long after the watermark last moved instead, so a steady stream gets
 *       none);
 *   <li>a LATE pane per bundle of late elements within the allowed lateness (the engine: one per
 *       element), and a final pane when the window expires, always;
 *   <li>accumulating panes; with {@link EventTimeWindowing#withFinalPaneOnly}, one pane per window,
 *       when it expires.
 * </ul>
 */
public final class BeamTrigger {

  private BeamTrigger() {}

  /**
   * Assigns elements to {@code windowing}'s windows with its trigger: Beam's {@code FixedWindows}
   * or {@code SlidingWindows}; Beam has no cumulating windows, and its sessions are not the
   * engine's.
   */
  public static <T> Window<T> windowInto(EventTimeWindowing windowing) {
    WindowFn<Object, IntervalWindow> windowFn = beamWindowFn(windowing.kind());
    if (windowing.finalPaneOnly()) {
      // One pane per window, when it is collected at expiry: Beam fires it whatever the trigger.
      return Window.<T>into(windowFn)
          .triggering(Never.ever())
          .withAllowedLateness(windowing.allowedLateness(), ClosingBehavior.FIRE_ALWAYS)
          .withOnTimeBehavior(OnTimeBehavior.FIRE_IF_NON_EMPTY)
          .accumulatingFiredPanes();
    }
    return Window.<T>into(windowFn)
        .triggering(
            AfterWatermark.pastEndOfWindow()
                .withEarlyFirings(
                    AfterProcessingTime.pastFirstElementInPane().plusDelayOf(windowing.idleFlush()))
                .withLateFirings(AfterPane.elementCountAtLeast(1)))
        .withAllowedLateness(windowing.allowedLateness(), ClosingBehavior.FIRE_ALWAYS)
        .withOnTimeBehavior(OnTimeBehavior.FIRE_ALWAYS)
        .accumulatingFiredPanes();
  }

  private static WindowFn<Object, IntervalWindow> beamWindowFn(WindowKind kind) {
    switch (kind.shape()) {
      case TUMBLING:
        return FixedWindows.of(kind.size());
      case SLIDING:
        return SlidingWindows.of(kind.size()).every(kind.slide());
      default:
        throw new IllegalArgumentException(kind + " windows run on tidemark's pane engine only");
    }
  }
}
