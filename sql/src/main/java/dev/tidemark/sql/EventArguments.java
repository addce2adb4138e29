package dev.tidemark.sql;

import dev.tidemark.transforms.model.EventKey;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a query's events carry for its aggregate calls, and the calls that read them: the query's
 * own arguments, less those a call can do without. A {@code COUNT} of a {@code GROUP BY} column
 * ({@code count(op)} in {@code GROUP BY ..., op}) counts the group's rows when the column is not
 * {@code NULL}, and none when it is: the key says which, so the call counts rows ({@code COUNT(*)})
 * and carries nothing, and the group's row takes 0 for a {@code NULL} key part ({@link #valueOf}).
 * Each record then crosses the shuffle with fewer values.
 */
final class EventArguments implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int[] columns;
  private final List<Aggregation> aggregations;
  private final int[] countedKeyParts;

  private EventArguments(int[] columns, List<Aggregation> aggregations, int[] countedKeyParts) {
    this.columns = columns;
    this.aggregations = aggregations;
    this.countedKeyParts = countedKeyParts;
  }

  /** The arguments {@code columns} of {@code aggregations}, each carried as it is. */
  static EventArguments asWritten(int[] columns, List<Aggregation> aggregations) {
    int[] none = new int[aggregations.size()];
    Arrays.fill(none, -1);
    return new EventArguments(columns.clone(), List.copyOf(aggregations), none);
  }

  /**
   * The arguments {@code columns} of {@code aggregations}, less those of each plain {@code COUNT}
   * of one of {@code keyColumns}.
   */
  static EventArguments of(int[] columns, List<Aggregation> aggregations, int[] keyColumns) {
    int[] countedKeyParts = new int[aggregations.size()];
    boolean[] dropped = new boolean[columns.length];
    for (int a = 0; a < aggregations.size(); a++) {
      countedKeyParts[a] = countedKeyPart(aggregations.get(a), columns, keyColumns);
      if (countedKeyParts[a] >= 0) {
        dropped[aggregations.get(a).argumentSlot()] = true;
      }
    }
    int[] newSlots = new int[columns.length];
    List<Integer> kept = new ArrayList<>();
    for (int slot = 0; slot < columns.length; slot++) {
      newSlots[slot] = dropped[slot] ? -1 : kept.size();
      if (!dropped[slot]) {
        kept.add(columns[slot]);
      }
    }
    List<Aggregation> calls = new ArrayList<>();
    for (int a = 0; a < aggregations.size(); a++) {
      calls.add(
          countedKeyParts[a] >= 0
              ? Aggregation.countOfRows()
              : aggregations.get(a).withSlots(newSlots));
    }
    return new EventArguments(
        kept.stream().mapToInt(Integer::intValue).toArray(), List.copyOf(calls), countedKeyParts);
  }

  /** The key part whose rows {@code call} counts, if it is a plain COUNT of one; else -1. */
  private static int countedKeyPart(Aggregation call, int[] columns, int[] keyColumns) {
    if (!call.name().equals("COUNT")
        || call.ordered()
        || call.argumentSlot() < 0
        || call.combineFn() instanceof DistinctFn) {
      return -1;
    }
    for (int k = 0; k < keyColumns.length; k++) {
      if (keyColumns[k] == columns[call.argumentSlot()]) {
        return k;
      }
    }
    return -1;
  }

  /** For each value an event carries, its column of the row before the grouping. */
  int[] columns() {
    return columns;
  }

  /** The calls, reading the values an event carries. */
  List<Aggregation> aggregations() {
    return aggregations;
  }

  /**
   * The value of call {@code a} in the group {@code key}, whose aggregate is {@code aggregated}.
   */
  @Nullable Object valueOf(int a, EventKey key, @Nullable Object aggregated) {
    int part = countedKeyParts[a];
    return part >= 0 && key.part(part) == null ? (Object) 0L : aggregated;
  }
}
