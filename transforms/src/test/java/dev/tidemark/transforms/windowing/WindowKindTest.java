package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.testing.WindowsHolding;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The slice arithmetic of each window kind against windows found by trying every start near a
 * record, as Flink SQL's window functions define them, over instants on both sides of the epoch and
 * exactly at slice and window edges.
 */
class WindowKindTest {

  private static final Duration S = Duration.standardSeconds(1);

  @Test
  void tumblingWindowsAreTheirOwnSlices() {
    WindowKind kind = EventTimeWindowing.fixed(S.multipliedBy(5)).kind();
    assertThat(kind.slice(), equalTo(S.multipliedBy(5)));
    assertAgreesWithBruteForce(kind);
  }

  @Test
  void slidingWindowsAreSlicedByTheGreatestCommonStep() {
    // (1) A minute every second: 60 windows a record, slices of a second.
    WindowKind minute = EventTimeWindowing.sliding(S.multipliedBy(60), S).kind();
    assertThat(minute.slice(), equalTo(S));
    assertThat(minute.windowsOfSlice(new Instant(0)).size(), equalTo(60));
    // (2) 3 s every 2 s: slices of 1 s, and windows that end off the slide.
    WindowKind offSlide = EventTimeWindowing.sliding(S.multipliedBy(3), S.multipliedBy(2)).kind();
    assertThat(offSlide.slice(), equalTo(S));
    assertAgreesWithBruteForce(offSlide);
    assertAgreesWithBruteForce(
        EventTimeWindowing.sliding(S.multipliedBy(10), S.multipliedBy(4)).kind());
    assertAgreesWithBruteForce(
        EventTimeWindowing.sliding(S.multipliedBy(5), S.multipliedBy(5)).kind());
  }

  @Test
  void cumulatingWindowsGrowByStepsFromOneStart() {
    WindowKind kind = EventTimeWindowing.cumulating(S, S.multipliedBy(4)).kind();
    // (1) The third second of a 4 s span is in the windows ending at its 3rd and 4th second.
    List<IntervalWindow> windows = kind.windowsOfSlice(new Instant(2_000));
    assertThat(
        windows,
        equalTo(
            List.of(
                new IntervalWindow(new Instant(0), new Instant(3_000)),
                new IntervalWindow(new Instant(0), new Instant(4_000)))));
    // (2) A window is named by its end.
    assertThat(
        kind.windowEndingAt(new Instant(4_000)),
        equalTo(new IntervalWindow(new Instant(0), new Instant(4_000))));
    assertAgreesWithBruteForce(kind);
    assertAgreesWithBruteForce(
        EventTimeWindowing.cumulating(S.multipliedBy(2), S.multipliedBy(6)).kind());
  }

  @Test
  void contradictionsAreRefusedWithTheValues() {
    IllegalArgumentException slideTooLong =
        assertThrows(
            IllegalArgumentException.class, () -> EventTimeWindowing.sliding(S, S.multipliedBy(2)));
    assertThat(slideTooLong.getMessage(), containsString("longer than the window size"));
    IllegalArgumentException notWhole =
        assertThrows(
            IllegalArgumentException.class,
            () -> EventTimeWindowing.cumulating(S.multipliedBy(2), S.multipliedBy(5)));
    assertThat(notWhole.getMessage(), containsString("not a whole number of steps"));
    IllegalArgumentException onlyTumbling =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                dev.tidemark.transforms.testing.CaptureLateData.of(
                    EventTimeWindowing.sliding(S.multipliedBy(2), S)));
    assertThat(
        onlyTumbling.getMessage(), containsString("CaptureLateData takes tumbling windows only"));
  }

  /**
   * For every millisecond around the epoch and a later instant: the record's slice holds it, and
   * the windows of its slice are exactly those found by brute force, each made of whole slices, the
   * slice's first and last windows among them.
   */
  private static void assertAgreesWithBruteForce(WindowKind kind) {
    for (long origin : new long[] {-20_000, 1_600_000_000_000L}) {
      for (long t = origin; t < origin + 20_000; t += 250) {
        for (long at : new long[] {t, t + 1, t - 1}) {
          IntervalWindow slice = kind.sliceOf(new Instant(at));
          String where = kind + " at " + at;
          assertThat(
              where,
              !slice.start().isAfter(new Instant(at)) && slice.end().isAfter(new Instant(at)));
          List<IntervalWindow> windows = kind.windowsOfSlice(slice.start());
          assertThat(where, windows, equalTo(bruteForce(kind, at)));
          assertThat(
              where, windows.get(0).end(), equalTo(kind.firstWindowEndOfSlice(slice.start())));
          assertThat(
              where,
              windows.get(windows.size() - 1).end(),
              equalTo(kind.lastWindowEndOfSlice(slice.start())));
          for (IntervalWindow window : windows) {
            assertThat(where, kind.windowEndingAt(window.end()), equalTo(window));
            assertThat(where, kind.slicesOf(window).contains(slice.start()), equalTo(true));
            assertThat(
                where,
                kind.slicesOf(window).size() * kind.slice().getMillis(),
                equalTo(window.end().getMillis() - window.start().getMillis()));
          }
        }
      }
    }
  }

  private static List<IntervalWindow> bruteForce(WindowKind kind, long at) {
    List<IntervalWindow> windows = new ArrayList<>();
    for (long[] window : WindowsHolding.of(windowingOf(kind), at)) {
      windows.add(new IntervalWindow(new Instant(window[0]), new Instant(window[1])));
    }
    return windows;
  }

  private static EventTimeWindowing windowingOf(WindowKind kind) {
    switch (kind.shape()) {
      case SLIDING:
        return EventTimeWindowing.sliding(kind.size(), kind.slide());
      case CUMULATING:
        return EventTimeWindowing.cumulating(kind.slide(), kind.size());
      default:
        return EventTimeWindowing.fixed(kind.size());
    }
  }
}
