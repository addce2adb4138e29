package dev.tidemark.sql;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.watermark.Watermarks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.util.CoderUtils;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link TopRowsFn} keeps at most N rows however many arrive, and its top N is the top N of a whole
 * sort of the window's rows (by the order, {@code NULL} last when descending, ties to the first to
 * arrive; or the last, for deduplication that keeps the last row), however a runner splits the rows
 * into accumulators, codes them and merges them.
 */
class TopRowsFnTest {

  private static final Random RANDOM = new Random(23);

  /** 200 rows of (score, name): scores 0 to 19 with many ties, every 9th NULL. */
  private static List<Event> rows() {
    List<Event> rows = new ArrayList<>();
    for (int arrival = 0; arrival < 200; arrival++) {
      Long score = arrival % 9 == 8 ? null : (long) RANDOM.nextInt(20);
      rows.add(
          new Event(
              EventKey.of("k"),
              new Instant(1000 + RANDOM.nextInt(5000)),
              0,
              "",
              Watermarks.MIN,
              arrival,
              null,
              Arrays.asList(score, "row" + arrival)));
    }
    return rows;
  }

  @Test
  void theTopNIsThatOfAWholeSortHoweverTheRowsAreSplit() throws Exception {
    for (boolean descending : List.of(true, false)) {
      for (boolean laterArrivalFirst : List.of(false, true)) {
        WindowRanking.SortKey score = WindowRanking.SortKey.of(0, descending, null);
        TopRowsFn top = new TopRowsFn(5, List.of(score), laterArrivalFirst, 2);
        List<Event> rows = rows();
        Comparator<Event> whole =
            Comparator.comparing((Event row) -> row.columns().get(0), score.values());
        Comparator<Event> byArrival = Comparator.comparingLong(Event::position);
        List<Event> sorted = new ArrayList<>(rows);
        sorted.sort(whole.thenComparing(laterArrivalFirst ? byArrival.reversed() : byArrival));
        List<@Nullable Object> expected = new ArrayList<>();
        for (Event row : sorted.subList(0, 5)) {
          expected.addAll(row.columns());
        }

        for (int trial = 0; trial < 30; trial++) {
          assertThat(split(top, rows), equalTo(expected));
        }
      }
    }
  }

  @Test
  void anAccumulatorNeverHoldsMoreThanNRows() {
    TopRowsFn top = new TopRowsFn(3, List.of(WindowRanking.SortKey.of(0, true, null)), false, 2);
    List<List<@Nullable Object>> accumulator = top.createAccumulator();
    for (Event row : rows()) {
      accumulator = top.addInput(accumulator, row);
      assertThat(accumulator.size(), lessThanOrEqualTo(3));
    }
    assertThat(accumulator.size(), equalTo(3));
  }

  private static List<@Nullable Object> split(TopRowsFn fn, List<Event> rows) throws Exception {
    List<Event> shuffled = new ArrayList<>(rows);
    Collections.shuffle(shuffled, RANDOM);
    List<List<List<@Nullable Object>>> accumulators = new ArrayList<>();
    int parts = 1 + RANDOM.nextInt(5);
    for (int part = 0; part < parts; part++) {
      List<List<@Nullable Object>> accumulator = fn.createAccumulator();
      for (int at = part; at < shuffled.size(); at += parts) {
        accumulator = fn.addInput(accumulator, shuffled.get(at));
      }
      accumulators.add(CoderUtils.clone(fn.getAccumulatorCoder(null, null), accumulator));
    }
    Collections.shuffle(accumulators, RANDOM);
    return fn.extractOutput(fn.mergeAccumulators(accumulators));
  }
}
