package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.PaneEngine.Pane;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The pane rules of one (key, window), without a pipeline: a hand-set clock and hand-set
 * watermarks. Each record is a value that is also its own position in arrival order; panes are
 * described as {@code TIMING#index[ final] count/sum}.
 */
class PaneEngineTest {

  private static final Instant BASE_TIME = new Instant(1_600_000_000_000L);
  private static final Duration WINDOW = Duration.standardSeconds(5);
  private static final Duration ALLOWED_LATENESS = Duration.standardSeconds(30);
  private static final Duration IDLE_FLUSH = Duration.standardSeconds(10);
  private static final IntervalWindow FIRST_WINDOW =
      new IntervalWindow(BASE_TIME, BASE_TIME.plus(WINDOW));
  private static final EventTimeWindowing WITH_LATENESS =
      EventTimeWindowing.fixed(WINDOW)
          .withAllowedLateness(ALLOWED_LATENESS)
          .withIdleFlush(IDLE_FLUSH);
  private static final EventTimeWindowing WITHOUT_LATENESS =
      EventTimeWindowing.fixed(WINDOW).withIdleFlush(IDLE_FLUSH);

  /** The step's input watermark was never seen to move ({@link WatermarkProgress#NEVER}). */
  private static final long STILL = WatermarkProgress.NEVER;

  private final ManualClock clock = new ManualClock();

  private PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> live(EventTimeWindowing windowing) {
    return PaneEngine.live(windowing, CountAndSumFn.<Long>summing(value -> value)).withClock(clock);
  }

  private PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> replay(EventTimeWindowing windowing) {
    return PaneEngine.replay(windowing, CountAndSumFn.<Long>summing(value -> value), Long::compare)
        .withClock(clock);
  }

  private static void onTime(
      PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine,
      WindowState<Long, KV<Long, Long>> state,
      long value) {
    engine.addOnTime(state, KV.of(1L, value), 1);
  }

  private static List<String> described(List<Pane<KV<Long, Long>>> panes) {
    List<String> described = new ArrayList<>();
    for (Pane<KV<Long, Long>> pane : panes) {
      described.add(
          pane.pane().timing()
              + "#"
              + pane.pane().index()
              + (pane.pane().isFinal() ? " final " : " ")
              + pane.value().getKey()
              + "/"
              + pane.value().getValue());
    }
    return described;
  }

  @Test
  void theRuleOfLateness() {
    PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine = live(WITH_LATENESS);
    Instant end = FIRST_WINDOW.end();
    Instant lastWithinLateness = end.minus(1).plus(ALLOWED_LATENESS);
    // (1) Before the end: on time. (2) From the end through the lateness: late within it.
    // (3) After that: expired, exactly where Beam's GroupByKey would drop it.
    assertThat(engine.arrival(FIRST_WINDOW, end.minus(1)), equalTo(Arrival.ON_TIME));
    assertThat(engine.arrival(FIRST_WINDOW, end), equalTo(Arrival.LATE_WITHIN_LATENESS));
    assertThat(
        engine.arrival(FIRST_WINDOW, lastWithinLateness), equalTo(Arrival.LATE_WITHIN_LATENESS));
    assertThat(engine.arrival(FIRST_WINDOW, lastWithinLateness.plus(1)), equalTo(Arrival.EXPIRED));
    WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
    assertThat(engine.expiresAt(state), equalTo(lastWithinLateness.plus(1)));
    assertThat(engine.closesAt(state), equalTo(end));
  }

  @Test
  void liveOnTimeThenAClosingFinalPane() {
    PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine = live(WITH_LATENESS);
    WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
    onTime(engine, state, 1);
    onTime(engine, state, 2);

    // (1) The window closes: ON_TIME, not final, since late data may still come.
    assertThat(
        described(engine.onWatermark(state, engine.closesAt(state))), contains("ON_TIME#0 2/3"));
    // (2) It expires with nothing new: a final pane repeats the last, as Beam's FIRE_ALWAYS does.
    assertThat(
        described(engine.onWatermark(state, engine.expiresAt(state))),
        contains("LATE#1 final 2/3"));
    assertThat(state.isDone(), equalTo(true));
    assertThat(engine.onWatermark(state, engine.expiresAt(state).plus(1)), empty());
  }

  @Test
  void replayKnowsNoLateDataCameSoItsOnTimePaneIsFinal() {
    PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine = replay(WITH_LATENESS);
    WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
    onTime(engine, state, 1);
    onTime(engine, state, 2);

    // (1) Closing emits nothing yet. (2) Expiry emits the one pane, final.
    assertThat(engine.onWatermark(state, engine.closesAt(state)), empty());
    assertThat(
        described(engine.onWatermark(state, engine.expiresAt(state))),
        contains("ON_TIME#0 final 2/3"));
    assertThat(state.isDone(), equalTo(true));
  }

  @Test
  void liveLateRecordsAddAPaneEachAtOnce() {
    PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine = live(WITH_LATENESS);
    WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
    onTime(engine, state, 1);
    assertThat(
        described(engine.onWatermark(state, engine.closesAt(state))), contains("ON_TIME#0 1/1"));

    // (1) Each record late within the lateness gives its LATE pane when it comes.
    assertThat(described(engine.addLateWithinLateness(state, 5L)), contains("LATE#1 2/6"));
    assertThat(described(engine.addLateWithinLateness(state, 3L)), contains("LATE#2 3/9"));
    // (2) And the window's expiry gives the final one.
    assertThat(
        described(engine.onWatermark(state, engine.expiresAt(state))),
        contains("LATE#3 final 3/9"));
  }

  @Test
  void replayHoldsLateRecordsAndEmitsThemInArrivalOrder() {
    PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine = replay(WITH_LATENESS);
    WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
    onTime(engine, state, 1);
    // (1) Late records reach the step out of their arrival order (5 arrived after 3).
    assertThat(engine.addLateWithinLateness(state, 5L), empty());
    assertThat(engine.addLateWithinLateness(state, 3L), empty());

    // (2) At expiry: ON_TIME, then one LATE pane each in arrival order, the last final.
    assertThat(
        described(engine.onWatermark(state, engine.expiresAt(state))),
        contains("ON_TIME#0 1/1", "LATE#1 2/4", "LATE#2 final 3/9"));
  }

  @Test
  void onlyLateRecordsGiveNoOnTimePane() {
    for (PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine :
        List.of(live(WITH_LATENESS), replay(WITH_LATENESS))) {
      WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
      List<Pane<KV<Long, Long>>> panes = new ArrayList<>(engine.addLateWithinLateness(state, 4L));
      panes.addAll(engine.onWatermark(state, engine.expiresAt(state)));

      List<String> expected =
          engine.judge() == PaneEngine.Judge.INPUT_WATERMARK
              ? List.of("LATE#0 1/4", "LATE#1 final 1/4")
              : List.of("LATE#0 final 1/4");
      assertThat(engine.judge().toString(), described(panes), equalTo(expected));
    }
  }

  @Test
  void withoutLatenessLiveAndReplayAreTheSame() {
    for (PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine :
        List.of(live(WITHOUT_LATENESS), replay(WITHOUT_LATENESS))) {
      WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
      onTime(engine, state, 7);
      // (1) The window closes and expires at the same instant: one pane, ON_TIME and final.
      assertThat(engine.closesAt(state), equalTo(engine.expiresAt(state)));
      assertThat(
          engine.judge().toString(),
          described(engine.onWatermark(state, engine.closesAt(state))),
          contains("ON_TIME#0 final 1/7"));
    }
  }

  @Test
  void noIdleFlushWhileTheWatermarkMoves() {
    for (PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine :
        List.of(live(WITH_LATENESS), replay(WITH_LATENESS))) {
      WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
      long armedAt = clock.millis();
      onTime(engine, state, 1);
      // (1) idleFlush after the first record, but the watermark moved 1 ms before: the window's
      // close is not overdue, so the flush waits idleFlush from that move.
      clock.advance(IDLE_FLUSH);
      long movedAt = clock.millis() - 1;
      assertThat(engine.onClock(state, movedAt), empty());
      assertThat(state.flushDueMillis(), equalTo(movedAt + IDLE_FLUSH.getMillis()));
      // (2) A move before the first record does not put the flush off.
      WindowState<Long, KV<Long, Long>> other =
          engine.open(new IntervalWindow(BASE_TIME.plus(WINDOW), WINDOW));
      onTime(engine, other, 1);
      clock.advance(IDLE_FLUSH);
      assertThat(described(engine.onClock(other, armedAt)), contains("EARLY#0 1/1"));
      // (3) The watermark has been still for idleFlush since its last move: EARLY.
      clock.advance(Duration.millis(1));
      assertThat(described(engine.onClock(state, movedAt)), contains("EARLY#0 1/1"));
      assertThat(state.flushDueMillis(), equalTo(Long.MAX_VALUE));
    }
  }

  @Test
  void aClosedWindowStaysClosedWhenARestoreSetsTheWatermarkBack() {
    PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine = live(WITH_LATENESS);
    WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
    onTime(engine, state, 1);
    engine.onWatermark(state, engine.closesAt(state));
    // (1) Judged by the minimum, as the first record after a restore is, the record looks on time;
    // the window it belongs to has closed, so it is late within the lateness.
    Instant restored = BASE_TIME.minus(Duration.standardDays(1));
    assertThat(engine.arrival(FIRST_WINDOW, restored), equalTo(Arrival.ON_TIME));
    assertThat(
        engine.arrival(state, FIRST_WINDOW, restored), equalTo(Arrival.LATE_WITHIN_LATENESS));
    // (2) A window with nothing kept, or still open, is judged by the watermark alone.
    assertThat(engine.arrival(null, FIRST_WINDOW, restored), equalTo(Arrival.ON_TIME));
    WindowState<Long, KV<Long, Long>> open = engine.open(FIRST_WINDOW);
    assertThat(engine.arrival(open, FIRST_WINDOW, restored), equalTo(Arrival.ON_TIME));
  }

  @Test
  void speculativeIdleFlush() {
    for (PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine :
        List.of(live(WITH_LATENESS), replay(WITH_LATENESS))) {
      WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
      onTime(engine, state, 1);
      // (1) Not due yet: nothing.
      clock.advance(IDLE_FLUSH.minus(1));
      assertThat(engine.onClock(state, STILL), empty());
      onTime(engine, state, 2);
      // (2) idleFlush after the first unreported record: EARLY with both records.
      clock.advance(Duration.millis(1));
      assertThat(described(engine.onClock(state, STILL)), contains("EARLY#0 2/3"));
      assertThat(state.flushDueMillis(), equalTo(Long.MAX_VALUE));
      // (3) Once closed, no EARLY pane any more, however long the wait.
      onTime(engine, state, 3);
      List<Pane<KV<Long, Long>>> closing = engine.onWatermark(state, engine.closesAt(state));
      clock.advance(IDLE_FLUSH.multipliedBy(2));
      assertThat(engine.onClock(state, STILL), empty());
      // (4) The watermark jumps past the expiry: one pane, ON_TIME and final, either way.
      closing = new ArrayList<>(closing);
      closing.addAll(engine.onWatermark(state, engine.expiresAt(state)));
      String expected =
          engine.judge() == PaneEngine.Judge.INPUT_WATERMARK
              ? "[ON_TIME#1 3/6, LATE#2 final 3/6]"
              : "[ON_TIME#1 final 3/6]";
      assertThat(engine.judge().toString(), described(closing).toString(), equalTo(expected));
    }
  }

  @Test
  void liveWatermarkPastTheExpiryAtOnceGivesOneFinalOnTimePane() {
    PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine = live(WITH_LATENESS);
    WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
    onTime(engine, state, 2);
    assertThat(
        described(engine.onWatermark(state, Watermarks.MAX)), contains("ON_TIME#0 final 1/2"));
  }

  @Test
  void stateRoundTrips() throws Exception {
    PaneEngine<Long, KV<Long, Long>, KV<Long, Long>> engine = replay(WITH_LATENESS);
    WindowState<Long, KV<Long, Long>> state = engine.open(FIRST_WINDOW);
    onTime(engine, state, 3);
    engine.addLateWithinLateness(state, 8L);
    engine.onWatermark(state, engine.closesAt(state));
    Coder<WindowState<Long, KV<Long, Long>>> coder =
        WindowState.WindowStateCoder.of(VarLongCoder.of(), CountAndSumFn.CODER);

    byte[] encoded = CoderUtils.encodeToByteArray(coder, state);
    WindowState<Long, KV<Long, Long>> decoded = CoderUtils.decodeFromByteArray(coder, encoded);
    assertThat(CoderUtils.encodeToByteArray(coder, decoded), equalTo(encoded));
    // The decoded state goes on as the original would.
    assertThat(
        described(engine.onWatermark(decoded, engine.expiresAt(decoded))),
        contains("ON_TIME#0 1/3", "LATE#1 final 2/11"));
    CoderProperties.coderSerializable(coder);
  }

  /** A clock a test moves by hand. */
  private static final class ManualClock extends Clock {
    private long millis = 1_700_000_000_000L;

    void advance(Duration duration) {
      millis += duration.getMillis();
    }

    @Override
    public long millis() {
      return millis;
    }

    @Override
    public java.time.Instant instant() {
      return java.time.Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
