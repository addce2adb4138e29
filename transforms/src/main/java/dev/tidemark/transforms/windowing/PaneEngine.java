package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.WindowPane;
import java.io.Serializable;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.SerializableComparator;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Decides every pane of one (key, window): the one place where tidemark's pane rules live. A
 * stateful step keeps a {@link WindowState} per (key, window), hands each record to the engine with
 * the watermark that judges it, and calls it when that watermark reaches the window's {@link
 * #closesAt} and {@link #expiresAt}, and when the clock reaches the state's {@link
 * WindowState#flushDueMillis()}. The engine says which panes come out; it has no Beam state, no
 * timers and no threads, so a test drives it with a hand-set clock.
 *
 * <h2>The rules (W = the watermark that judges a record, [start, end) its window)</h2>
 *
 * <ul>
 *   <li>{@code W < end}: on time ({@link Arrival#ON_TIME}).
 *   <li>{@code end <= W <= end - 1 ms + allowedLateness}: late within the lateness; it adds one
 *       LATE pane of its own, after the ON_TIME pane.
 *   <li>{@code W} beyond that: the window has expired ({@link EventTimeWindowing#isExpired}); the
 *       record belongs in the late output, never in a pane.
 *   <li>EARLY panes only by the idle flush, and only for a window whose close is overdue: while the
 *       window is open and holds records not yet reported, once {@code idleFlush} of clock time has
 *       passed both since the first of those records and since the step's input watermark last
 *       moved. While the watermark moves, the window's close comes by itself, so a steady stream
 *       gives one pane per window; a stalled watermark (a stuck upstream, a silent side of a join,
 *       a source held back) gives the EARLY pane. This is where the engine parts from Beam's {@code
 *       AfterProcessingTime.pastFirstElementInPane()}, which counts from the first record only and
 *       so fires in a busy stream whenever {@code idleFlush} is shorter than the time a window
 *       stays open.
 *   <li>Panes accumulate; exactly one pane of a window is {@code final}, and it holds every record
 *       that was not late beyond the lateness.
 *   <li>With {@link EventTimeWindowing#withFinalPaneOnly()}, that final pane is the only one: index
 *       0, timing ON_TIME (as Beam names the first pane after the watermark passed the window's
 *       end), emitted when the window expires; no idle flush is armed.
 * </ul>
 *
 * <h2>The one way live and replayed output differ</h2>
 *
 * <p>The rules above are the same for both {@link Judge}s. What differs is what the step knows when
 * the window closes. A live step ({@link Judge#INPUT_WATERMARK}) cannot know whether late data will
 * still come, so it emits the ON_TIME pane when the window closes, each LATE pane when its record
 * comes, and, when the window expires, a closing final pane that repeats the last one if nothing
 * came after it (Beam's {@code ClosingBehavior.FIRE_ALWAYS}). A replay ({@link
 * Judge#ARRIVAL_WATERMARK}) knows, once its input watermark passes the window's expiry, every
 * record that will ever be in it, so it emits the ON_TIME pane and the LATE panes then, the last
 * one final, and nothing more. With no allowed lateness the two are the same: the window closes and
 * expires at once. With allowed lateness and no late record, a live window gives an ON_TIME pane
 * and then a final LATE pane with the same value; a replayed one gives one ON_TIME pane that is
 * final.
 *
 * <p>A replay's late records may reach the step in any order (from several readers, or batches that
 * overtake each other); it orders them by {@code arrivalOrder}, the order a live run would have
 * seen them in.
 *
 * @param <InputT> a record, as {@code aggregate} takes it
 * @param <AccumT> what {@code aggregate} keeps
 * @param <OutputT> what a pane carries
 */
public final class PaneEngine<InputT, AccumT, OutputT> implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Which watermark judges a record, and so what the step knows when a window closes. */
  public enum Judge {
    /** A live step's own input watermark, when the record reaches it. */
    INPUT_WATERMARK,
    /** The watermark the record met at its source, in a replay of a recording. */
    ARRIVAL_WATERMARK
  }

  /** A pane the engine decided, with what it carries. */
  public record Pane<OutputT>(WindowPane pane, OutputT value) {}

  private final EventTimeWindowing windowing;
  private final CombineFn<InputT, AccumT, OutputT> aggregate;
  private final Judge judge;
  private final SerializableComparator<InputT> arrivalOrder;
  private final Clock clock;

  private PaneEngine(
      EventTimeWindowing windowing,
      CombineFn<InputT, AccumT, OutputT> aggregate,
      Judge judge,
      SerializableComparator<InputT> arrivalOrder,
      Clock clock) {
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.judge = judge;
    this.arrivalOrder = arrivalOrder;
    this.clock = clock;
  }

  /** The engine of a live step: each record judged by the step's input watermark. */
  public static <InputT, AccumT, OutputT> PaneEngine<InputT, AccumT, OutputT> live(
      EventTimeWindowing windowing, CombineFn<InputT, AccumT, OutputT> aggregate) {
    return new PaneEngine<>(
        windowing, aggregate, Judge.INPUT_WATERMARK, (a, b) -> 0, Clock.systemUTC());
  }

  /**
   * The engine of a replay: each record judged by the watermark it met at its source; records late
   * within the lateness are put in {@code arrivalOrder} before their panes are emitted.
   */
  public static <InputT, AccumT, OutputT> PaneEngine<InputT, AccumT, OutputT> replay(
      EventTimeWindowing windowing,
      CombineFn<InputT, AccumT, OutputT> aggregate,
      SerializableComparator<InputT> arrivalOrder) {
    return new PaneEngine<>(
        windowing, aggregate, Judge.ARRIVAL_WATERMARK, arrivalOrder, Clock.systemUTC());
  }

  /** The same engine reading {@code clock} for the idle flush; tests give it a hand-set one. */
  public PaneEngine<InputT, AccumT, OutputT> withClock(Clock clock) {
    return new PaneEngine<>(windowing, aggregate, judge, arrivalOrder, clock);
  }

  public Judge judge() {
    return judge;
  }

  /** What a record of {@code window} is, judged by {@code watermark}. */
  public Arrival arrival(IntervalWindow window, Instant watermark) {
    return Arrival.of(windowing, window, watermark);
  }

  /**
   * What a record of {@code window} is, judged by {@code watermark} and by what the step keeps of
   * the window ({@code open}, null if nothing): a window that has closed stays closed, so a record
   * of it is late even when a restore has set the judging watermark back below its end.
   */
  public Arrival arrival(
      @Nullable WindowState<InputT, AccumT> open, IntervalWindow window, Instant watermark) {
    Arrival byWatermark = arrival(window, watermark);
    return open != null && open.closed && byWatermark == Arrival.ON_TIME
        ? Arrival.LATE_WITHIN_LATENESS
        : byWatermark;
  }

  /** The state of a window that has no record yet. */
  public WindowState<InputT, AccumT> open(IntervalWindow window) {
    return new WindowState<>(window.start(), window.end(), aggregate.createAccumulator());
  }

  /** When the watermark closes the window: the step calls {@link #onWatermark} then. */
  public Instant closesAt(WindowState<InputT, AccumT> state) {
    return window(state).end();
  }

  /**
   * When the watermark expires the window, the first instant {@link EventTimeWindowing#isExpired}
   * holds: the step calls {@link #onWatermark} then, and releases the state once it is done.
   */
  public Instant expiresAt(WindowState<InputT, AccumT> state) {
    return expiresAt(window(state));
  }

  /** When the watermark expires {@code window} ({@link #expiresAt(WindowState)}). */
  public Instant expiresAt(IntervalWindow window) {
    return new Instant(windowing.expiresAt(window).getMillis() + 1);
  }

  /**
   * The next watermark at which {@link #onWatermark} has panes to decide: the window's close, or,
   * once it has closed, its expiry.
   */
  public Instant nextDeadline(WindowState<InputT, AccumT> state) {
    return state.closed ? expiresAt(state) : closesAt(state);
  }

  /** Adds on-time records, already aggregated into {@code partial}; arms the idle flush. */
  public void addOnTime(WindowState<InputT, AccumT> state, AccumT partial, long records) {
    if (records == 0) {
      return;
    }
    state.accumulated = aggregate.mergeAccumulators(List.of(state.accumulated, partial));
    state.records += records;
    armIdleFlush(state);
  }

  /** Adds one on-time record; arms the idle flush. */
  public void addOnTime(WindowState<InputT, AccumT> state, InputT record) {
    state.accumulated = aggregate.addInput(state.accumulated, record);
    state.records++;
    armIdleFlush(state);
  }

  private void armIdleFlush(WindowState<InputT, AccumT> state) {
    if (!windowing.finalPaneOnly()
        && !state.closed
        && state.flushDueMillis == WindowState.NO_FLUSH) {
      // A window with data reports within idleFlush of its first unreported record, whatever the
      // watermark does.
      state.flushDueMillis = clock.millis() + windowing.idleFlush().getMillis();
    }
  }

  /**
   * For a step that keeps a window's records in slices, not in its state: the window's aggregate
   * and record count as its slices give them now, before the engine decides one of its panes.
   */
  public void setContents(WindowState<InputT, AccumT> state, AccumT accumulated, long records) {
    state.accumulated = accumulated;
    state.records = records;
  }

  /** For a step that keeps a window's state without its aggregate: the state, emptied of it. */
  public void dropContents(WindowState<InputT, AccumT> state) {
    state.accumulated = aggregate.createAccumulator();
  }

  /**
   * For a step that arms the idle flush once per key rather than per window: the window's EARLY
   * pane, now that the key's flush, due at {@code dueMillis}, has come ({@link #onClock}).
   */
  public List<Pane<OutputT>> onKeyFlush(
      WindowState<InputT, AccumT> state, long dueMillis, long watermarkMovedAtMillis) {
    state.flushDueMillis = dueMillis;
    return onClock(state, watermarkMovedAtMillis);
  }

  /**
   * Adds a record late within the lateness: a live step emits its LATE pane now; a replay holds it
   * until the window expires.
   */
  public List<Pane<OutputT>> addLateWithinLateness(
      WindowState<InputT, AccumT> state, InputT record) {
    if (judge == Judge.ARRIVAL_WATERMARK) {
      state.heldLate.add(record);
      return List.of();
    }
    state.accumulated = aggregate.addInput(state.accumulated, record);
    state.records++;
    state.closed = true;
    return windowing.finalPaneOnly() ? List.of() : List.of(pane(state, Timing.LATE, false));
  }

  /**
   * The panes due when the watermark that judges the window's records reaches {@code watermark}.
   */
  public List<Pane<OutputT>> onWatermark(WindowState<InputT, AccumT> state, Instant watermark) {
    List<Pane<OutputT>> panes = new ArrayList<>();
    if (state.finalEmitted) {
      return panes;
    }
    IntervalWindow window = window(state);
    boolean expired = windowing.isExpired(window, watermark);
    boolean closing = !state.closed && !watermark.isBefore(window.end());
    if (closing) {
      state.closed = true;
      state.flushDueMillis = WindowState.NO_FLUSH;
    }
    if (judge == Judge.INPUT_WATERMARK) {
      if (closing && state.records > 0 && (expired || !windowing.finalPaneOnly())) {
        panes.add(pane(state, Timing.ON_TIME, expired));
      }
      if (expired && !state.finalEmitted) {
        // Live, nobody knows that no late record will come until the window expires: then a
        // final pane says so, repeating the last one.
        panes.add(pane(state, Timing.LATE, true));
      }
      return panes;
    }
    if (expired) {
      List<InputT> late = new ArrayList<>(state.heldLate);
      late.sort(arrivalOrder);
      state.heldLate.clear();
      if (state.records > 0 && (late.isEmpty() || !windowing.finalPaneOnly())) {
        panes.add(pane(state, Timing.ON_TIME, late.isEmpty()));
      }
      for (int i = 0; i < late.size(); i++) {
        state.accumulated = aggregate.addInput(state.accumulated, late.get(i));
        state.records++;
        boolean last = i == late.size() - 1;
        if (last || !windowing.finalPaneOnly()) {
          panes.add(pane(state, Timing.LATE, last));
        }
      }
      state.finalEmitted = true;
    }
    return panes;
  }

  /**
   * The pane that withdraws a session window a pane of which came out, now that it has merged into
   * {@code mergedInto}: final, with the value of its last pane, after its last index; EARLY while
   * it was open, LATE once it had closed. A session that gave no pane yet needs none.
   */
  public Pane<OutputT> withdrawal(WindowState<InputT, AccumT> state, IntervalWindow mergedInto) {
    IntervalWindow window = window(state);
    WindowPane pane =
        new WindowPane(
            window.start(),
            window.end(),
            state.closed ? Timing.LATE : Timing.EARLY,
            state.panesEmitted,
            true,
            mergedInto);
    return new Pane<>(pane, aggregate.extractOutput(state.accumulated));
  }

  /**
   * The EARLY pane, if the window is open and its idle flush is due by the engine's clock: {@code
   * idleFlush} after its first unreported record and after {@code watermarkMovedAtMillis}, when the
   * step's input watermark last moved ({@link WatermarkProgress}). When it is not due yet because
   * the watermark moved, the flush is put off to its new due time ({@link
   * WindowState#flushDueMillis()}), for the step to set its timer again.
   */
  public List<Pane<OutputT>> onClock(
      WindowState<InputT, AccumT> state, long watermarkMovedAtMillis) {
    if (state.closed || state.flushDueMillis == WindowState.NO_FLUSH) {
      return List.of();
    }
    long due =
        Math.max(state.flushDueMillis, watermarkMovedAtMillis + windowing.idleFlush().getMillis());
    if (due > clock.millis()) {
      state.flushDueMillis = due;
      return List.of();
    }
    state.flushDueMillis = WindowState.NO_FLUSH;
    return List.of(pane(state, Timing.EARLY, false));
  }

  private Pane<OutputT> pane(WindowState<InputT, AccumT> state, Timing timing, boolean isFinal) {
    IntervalWindow window = window(state);
    // The only pane of a window is the first after the watermark passed its end: Beam names it
    // ON_TIME, whatever records it holds.
    Timing named = windowing.finalPaneOnly() ? Timing.ON_TIME : timing;
    WindowPane pane =
        new WindowPane(window.start(), window.end(), named, state.panesEmitted++, isFinal);
    if (isFinal) {
      state.finalEmitted = true;
    }
    return new Pane<>(pane, aggregate.extractOutput(state.accumulated));
  }

  private IntervalWindow window(WindowState<InputT, AccumT> state) {
    return new IntervalWindow(state.windowStart, state.windowEnd);
  }
}
