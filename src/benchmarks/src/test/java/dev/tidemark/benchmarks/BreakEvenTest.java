package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

class BreakEvenTest {

  @Test
  void aJobThatStartsLaterButRunsFasterCatchesUpWhereBothTakeTheSameTime() {
    // 7 s + N / 600k = 3 s + N / 400k when N = 4,000 ms / (1/400 - 1/600 ms per line) = 4.8M.
    BreakEven breakEven = new BreakEven(7_000, 600_000, 3_000, 400_000);

    double lines = breakEven.lines();

    assertThat(lines, closeTo(4_800_000, 1));
    assertThat(7_000 + lines * 1000 / 600_000, closeTo(3_000 + lines * 1000 / 400_000, 0.001));
    assertThat(breakEven.describe("lines"), equalTo("from about 4,800,000 lines"));
  }

  @Test
  void aJobThatStartsNoLaterAndRunsNoSlowerIsAsFastAtAnyLength() {
    assertThat(new BreakEven(3_000, 500_000, 3_000, 400_000).lines(), equalTo(0.0));
    assertThat(
        new BreakEven(2_000, 400_000, 3_000, 400_000).describe("lines"), equalTo("at any length"));
  }

  @Test
  void aJobThatStartsLaterAndRunsNoFasterNeverCatchesUp() {
    assertThat(
        new BreakEven(7_000, 400_000, 3_000, 400_000).lines(), equalTo(Double.POSITIVE_INFINITY));
    assertThat(
        new BreakEven(7_000, 300_000, 3_000, 400_000).describe("lines"),
        equalTo("never, at these rates"));
  }

  @Test
  void aJobThatStartsEarlierButRunsSlowerIsAheadOnlyOnShortInputs() {
    // 2 s + N / 300k = 3 s + N / 400k when N = 1,000 ms / (1/300 - 1/400 ms per line) = 1.2M.
    BreakEven breakEven = new BreakEven(2_000, 300_000, 3_000, 400_000);

    assertThat(breakEven.lines(), equalTo(Double.POSITIVE_INFINITY));
    assertThat(breakEven.describe("lines"), equalTo("only up to about 1,200,000 lines"));
  }

  @Test
  void aMissingFigureGivesNoAnswer() {
    BreakEven breakEven = new BreakEven(7_000, Double.NaN, 3_000, 400_000);

    assertThat(Double.isNaN(breakEven.lines()), equalTo(true));
    assertThat(breakEven.describe("lines"), equalTo("unknown (a figure is missing)"));
  }
}
