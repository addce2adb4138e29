package dev.tidemark.transforms.windowing;

import java.time.Clock;
import org.joda.time.Instant;

/**
 * When a stateful pane step last saw its input watermark move: what the idle flush waits on ({@link
 * PaneEngine#onClock}). The input watermark is the step instance's, the same for every key it
 * holds, so one tracker per instance serves them all; it needs no state, because what it forgets on
 * a restore is only how long the watermark has been still.
 *
 * <p>It sees the watermark only when the step runs (a record, a timer). A watermark above the one
 * it saw last moved after that last look, and is taken to have moved right after it: while records
 * come, the step looks many times a second and the time is close; when the step was not run for a
 * while, the watermark may have moved at any time since, and the flush is not put off for a move
 * that may be old. The first watermark it sees is not a move: nothing says when it came, and a step
 * that is given a fresh instance mid-run (the DirectRunner makes them per bundle) must not put off
 * a flush that is due.
 */
public final class WatermarkProgress {

  /** {@link #movedAtMillis()} before any move was seen. */
  public static final long NEVER = Long.MIN_VALUE;

  private boolean seenAny;
  private long lastWatermarkMillis;
  private long lastLookMillis;
  private long movedAtMillis = NEVER;

  /** Takes the step's input watermark as the step runs, at {@code clock}'s time. */
  public void observe(Instant watermark, Clock clock) {
    long millis = watermark.getMillis();
    long now = clock.millis();
    if (seenAny && millis > lastWatermarkMillis) {
      movedAtMillis = lastLookMillis;
    }
    seenAny = true;
    lastWatermarkMillis = Math.max(lastWatermarkMillis, millis);
    lastLookMillis = now;
  }

  /** The clock time at which the watermark was last seen to move, or {@link #NEVER}. */
  public long movedAtMillis() {
    return movedAtMillis;
  }
}
