package dev.tidemark.sql;

import dev.tidemark.transforms.model.ColumnValuesCoder;
import dev.tidemark.transforms.model.Event;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The top N rows of a partition and window, by a window Top-N's {@code ORDER BY} ({@link
 * WindowRanking}): the accumulator holds at most N rows, in rank order, each its record's place in
 * the order records arrived and its values ({@code Event.columns()}); a row that ranks below the
 * N-th is dropped as it comes. Ties are broken by that place, so the top N is the same however a
 * runner splits and merges the window's records. The output is the rows' values, one row after
 * another.
 */
final class TopRowsFn
    extends CombineFn<Event, List<List<@Nullable Object>>, List<@Nullable Object>> {

  private static final long serialVersionUID = 1L;

  private final int limit;
  private final List<WindowRanking.SortKey> order;
  private final boolean laterArrivalFirst;
  private final int valueCount;

  /** The rank order of two rows, made once per instance: rows come for each record. */
  private transient @Nullable Comparator<List<@Nullable Object>> ranking;

  TopRowsFn(
      int limit, List<WindowRanking.SortKey> order, boolean laterArrivalFirst, int valueCount) {
    this.limit = limit;
    this.order = List.copyOf(order);
    this.laterArrivalFirst = laterArrivalFirst;
    this.valueCount = valueCount;
  }

  @Override
  public List<List<@Nullable Object>> createAccumulator() {
    return new ArrayList<>();
  }

  @Override
  public List<List<@Nullable Object>> addInput(List<List<@Nullable Object>> top, Event event) {
    List<@Nullable Object> values = event.columns();
    if (values.size() < valueCount) {
      // A record that WHERE filtered out: it has no values, and its key is in no result.
      return top;
    }
    List<@Nullable Object> row = new ArrayList<>(valueCount + 1);
    row.add(AggregateColumnsFn.arrivalOf(event));
    row.addAll(values.subList(0, valueCount));
    return withRow(mutable(top), row);
  }

  @Override
  public List<List<@Nullable Object>> mergeAccumulators(
      Iterable<List<List<@Nullable Object>>> accumulators) {
    List<List<@Nullable Object>> merged = new ArrayList<>();
    for (List<List<@Nullable Object>> top : accumulators) {
      for (List<@Nullable Object> row : top) {
        merged = withRow(merged, row);
      }
    }
    return merged;
  }

  /** {@code top} with {@code row} in its place, if that is among the first N. */
  private List<List<@Nullable Object>> withRow(
      List<List<@Nullable Object>> top, List<@Nullable Object> row) {
    int at = Collections.binarySearch(top, row, ranking());
    int place = at >= 0 ? at + 1 : -at - 1;
    if (place < limit) {
      top.add(place, row);
      if (top.size() > limit) {
        top.remove(top.size() - 1);
      }
    }
    return top;
  }

  private Comparator<List<@Nullable Object>> ranking() {
    if (ranking == null) {
      ranking = rankOrder();
    }
    return ranking;
  }

  private Comparator<List<@Nullable Object>> rankOrder() {
    Comparator<List<@Nullable Object>> byOrder = null;
    for (WindowRanking.SortKey key : order) {
      Comparator<List<@Nullable Object>> byKey =
          Comparator.comparing(row -> row.get(key.column() + 1), key.values());
      byOrder = byOrder == null ? byKey : byOrder.thenComparing(byKey);
    }
    Comparator<List<@Nullable Object>> byArrival = Comparator.comparing(row -> (Long) row.get(0));
    byArrival = laterArrivalFirst ? byArrival.reversed() : byArrival;
    return byOrder == null ? byArrival : byOrder.thenComparing(byArrival);
  }

  private static List<List<@Nullable Object>> mutable(List<List<@Nullable Object>> top) {
    return top instanceof ArrayList ? top : new ArrayList<>(top);
  }

  @Override
  public List<@Nullable Object> extractOutput(List<List<@Nullable Object>> top) {
    List<@Nullable Object> values = new ArrayList<>(top.size() * valueCount);
    for (List<@Nullable Object> row : top) {
      values.addAll(row.subList(1, row.size()));
    }
    return values;
  }

  @Override
  public Coder<List<List<@Nullable Object>>> getAccumulatorCoder(
      CoderRegistry registry, Coder<Event> inputCoder) {
    return ListCoder.of(ColumnValuesCoder.of());
  }

  @Override
  public Coder<List<@Nullable Object>> getDefaultOutputCoder(
      CoderRegistry registry, Coder<Event> inputCoder) {
    return ColumnValuesCoder.of();
  }
}
