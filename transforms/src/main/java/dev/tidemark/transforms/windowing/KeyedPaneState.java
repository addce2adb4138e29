package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.watermark.Watermarks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * What a stateful pane step keeps per key, and the rules for keeping it, shared by the live step
 * and the replay's: the key's open windows, a {@code MapState} from window start to {@link
 * WindowState}, and one processing-time timer for the idle flush, at the earliest flush due among
 * them, with that time in a {@code ValueState} so the timer is only ever moved earlier. A window's
 * state goes once its final pane is out, and a key with no open window keeps no state and no timer.
 */
public final class KeyedPaneState {

  private KeyedPaneState() {}

  /**
   * When the window's deadline timer is next due ({@link PaneEngine#nextDeadline}): its close, or,
   * once closed, its expiry; never past the global window's end, where a timer cannot be set.
   */
  public static <InputT, AccumT> Instant nextDeadline(
      PaneEngine<InputT, AccumT, ?> engine, WindowState<InputT, AccumT> open) {
    return Watermarks.earliest(engine.nextDeadline(open), GlobalWindow.INSTANCE.maxTimestamp());
  }

  /**
   * After a window's deadline: releases its state if its final pane is out, else stores it. Returns
   * whether the window is still open.
   */
  public static <InputT, AccumT> boolean storeOrRelease(
      WindowState<InputT, AccumT> open,
      MapState<Instant, WindowState<InputT, AccumT>> openWindows,
      ValueState<Instant> flushDue,
      Timer flushTimer) {
    if (!open.isDone()) {
      openWindows.put(open.windowStart(), open);
      return true;
    }
    openWindows.remove(open.windowStart());
    if (openWindows.isEmpty().read()) {
      flushDue.clear();
      flushTimer.clear();
    }
    return false;
  }

  /** Makes the key's one flush timer fire at {@code due} unless it fires earlier already. */
  public static void armFlush(Instant due, ValueState<Instant> flushDue, Timer flushTimer) {
    @Nullable Instant armed = flushDue.read();
    if (armed == null || due.isBefore(armed)) {
      flushTimer.set(due);
      flushDue.write(due);
    }
  }

  /** Arms the key's timer for {@code open}'s flush, if it has one due. */
  public static void armFlushFor(
      WindowState<?, ?> open, ValueState<Instant> flushDue, Timer flushTimer) {
    if (open.flushDueMillis() != WindowState.NO_FLUSH) {
      armFlush(new Instant(open.flushDueMillis()), flushDue, flushTimer);
    }
  }

  /**
   * When the key's flush timer fires: the EARLY panes of every window whose flush is due by the
   * engine's clock go to {@code emit}, and the timer is armed again for the windows still waiting.
   * A timer that fires before it is due does nothing: runners fire pending processing-time timers
   * when the input ends, and that is the end of the input, not idleness; the windows' deadlines
   * report them.
   */
  public static <InputT, AccumT, OutputT> void onFlushTimer(
      PaneEngine<InputT, AccumT, OutputT> engine,
      long nowMillis,
      MapState<Instant, WindowState<InputT, AccumT>> openWindows,
      ValueState<Instant> flushDue,
      Timer flushTimer,
      Consumer<List<PaneEngine.Pane<OutputT>>> emit) {
    @Nullable Instant due = flushDue.read();
    flushDue.clear();
    if (due == null || nowMillis < due.getMillis()) {
      return;
    }
    for (Map.Entry<Instant, WindowState<InputT, AccumT>> entry : entries(openWindows)) {
      WindowState<InputT, AccumT> open = entry.getValue();
      List<PaneEngine.Pane<OutputT>> early = engine.onClock(open);
      if (!early.isEmpty()) {
        emit.accept(early);
        openWindows.put(entry.getKey(), open);
      } else {
        armFlushFor(open, flushDue, flushTimer);
      }
    }
  }

  /** A copy, so the state can be changed while going through it. */
  private static <T> List<Map.Entry<Instant, T>> entries(MapState<Instant, T> openWindows) {
    List<Map.Entry<Instant, T>> entries = new ArrayList<>();
    openWindows.entries().read().forEach(entries::add);
    return entries;
  }
}
