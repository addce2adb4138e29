package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.watermark.Watermarks;
import java.util.List;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.TimerMap;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * What a stateful pane step keeps per key, and the rules for keeping it, shared by the live step
 * and the replay's: the key's open windows, a {@code MapState} from window start to {@link
 * WindowState}, and per open window two timers tagged with its start ({@link #tag}): an event-time
 * deadline, when it closes and then when it expires, and, while an EARLY pane is due, a
 * processing-time timer for its idle flush. Each timer reads and writes only its own window, so a
 * timer costs the same however many windows the key has open (a key catching up on a backlog may
 * have hundreds). A window's state and timers go once its final pane is out, and a key with no open
 * window keeps no state and no timer.
 */
public final class KeyedPaneState {

  private KeyedPaneState() {}

  /** The tag of a window's timers: its start in epoch milliseconds. */
  public static String tag(Instant windowStart) {
    return Long.toString(windowStart.getMillis());
  }

  /** The start of the window whose timers have {@code tag}. */
  public static Instant windowStartOf(String tag) {
    return new Instant(Long.parseLong(tag));
  }

  /**
   * When the window's deadline timer is next due ({@link PaneEngine#nextDeadline}): its close, or,
   * once closed, its expiry; never past the global window's end, where a timer cannot be set.
   */
  public static <InputT, AccumT> Instant nextDeadline(
      PaneEngine<InputT, AccumT, ?> engine, WindowState<InputT, AccumT> open) {
    return Watermarks.earliest(engine.nextDeadline(open), GlobalWindow.INSTANCE.maxTimestamp());
  }

  /** Whether an EARLY pane of the window is due, and so its flush timer is set. */
  public static boolean flushArmed(WindowState<?, ?> open) {
    return open.flushDueMillis() != WindowState.NO_FLUSH;
  }

  /**
   * After the engine took records into {@code open}: sets the window's flush timer if they armed
   * its flush, {@code wasArmed} saying whether it was armed before.
   */
  public static void armFlush(WindowState<?, ?> open, boolean wasArmed, TimerMap flushes) {
    if (!wasArmed && flushArmed(open)) {
      flushes.set(tag(open.windowStart()), new Instant(open.flushDueMillis()));
    }
  }

  /**
   * After the watermark moved a window on: its flush timer goes if the window closed ({@code
   * wasArmed} saying whether it was set before); its state goes if its final pane is out, else it
   * is stored. Returns whether the window is still open.
   */
  public static <InputT, AccumT> boolean storeOrRelease(
      WindowState<InputT, AccumT> open,
      boolean wasArmed,
      MapState<Instant, WindowState<InputT, AccumT>> openWindows,
      TimerMap flushes) {
    if (wasArmed && !flushArmed(open)) {
      flushes.get(tag(open.windowStart())).clear();
    }
    if (!open.isDone()) {
      openWindows.put(open.windowStart(), open);
      return true;
    }
    openWindows.remove(open.windowStart());
    return false;
  }

  /**
   * When the flush timer tagged {@code tag} fires: its window's EARLY pane, if one is due by the
   * engine's clock and the watermark's progress ({@link PaneEngine#onClock}). A flush that the
   * watermark's moves put off sets the timer again for its new due time. A timer that fires before
   * it is due for any other reason (runners fire pending processing-time timers when the input
   * ends, and that is the end of the input, not idleness) gives no pane; the window's deadline
   * reports it.
   */
  public static <InputT, AccumT, OutputT> List<PaneEngine.Pane<OutputT>> onFlushTimer(
      PaneEngine<InputT, AccumT, OutputT> engine,
      String tag,
      long watermarkMovedAtMillis,
      MapState<Instant, WindowState<InputT, AccumT>> openWindows,
      TimerMap flushes) {
    Instant start = windowStartOf(tag);
    @Nullable WindowState<InputT, AccumT> open = openWindows.get(start).read();
    if (open == null) {
      return List.of();
    }
    long dueBefore = open.flushDueMillis();
    List<PaneEngine.Pane<OutputT>> early = engine.onClock(open, watermarkMovedAtMillis);
    if (flushArmed(open) && open.flushDueMillis() != dueBefore) {
      flushes.set(tag, new Instant(open.flushDueMillis()));
    }
    if (!early.isEmpty() || open.flushDueMillis() != dueBefore) {
      openWindows.put(start, open);
    }
    return early;
  }
}
