package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableTest {

  private static final long LINES = 4_000_000;

  @Test
  void eachRoundIsComparedWithItselfAndAVoidRunLeavesItsRoundOut() {
    List<Result> tidemark =
        List.of(run(10_000), run(8_000), new Result(LINES, 9_000, LINES - 1, 0), run(12_000));
    List<Result> other = List.of(run(9_000), run(10_000), run(9_000), run(6_000));

    List<Double> ratios = Table.pairedRatios(tidemark, other);

    // Rounds 1, 2 and 4: 0.9x, 1.25x and 0.5x; round 3's tidemark run counted one line short.
    assertThat(ratios, hasSize(3));
    assertThat(ratios.get(0), closeTo(0.5, 1e-9));
    assertThat(ratios.get(1), closeTo(0.9, 1e-9));
    assertThat(ratios.get(2), closeTo(1.25, 1e-9));
  }

  @Test
  void theTableSaysTheRangeAndMedianOfTheRounds() {
    Map<Variant, List<Result>> results =
        Map.of(
            Variant.TIDEMARK, List.of(run(10_000), run(8_000), run(12_000)),
            Variant.NATIVE_FLINK, List.of(run(9_000), run(10_000), run(6_000)));
    Map<Variant, List<Result>> startups =
        Map.of(
            Variant.TIDEMARK, List.of(startup(6_000), startup(6_000), startup(6_000)),
            Variant.NATIVE_FLINK, List.of(startup(4_000), startup(4_000), startup(4_000)));

    String table = Table.of(results, startups, LINES, 2);

    assertThat(
        table, containsString("run by run (each pair back to back): 0.50x to 1.25x, median 0.90x"));
  }

  private static Result run(long millis) {
    return new Result(LINES, millis, LINES, 0);
  }

  private static Result startup(long millis) {
    return new Result(10_000, millis, 10_000, 0);
  }
}
