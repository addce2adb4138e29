package dev.tidemark.sql;

import java.io.Serializable;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.Count;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One aggregate call of a query ({@code COUNT(*)}, {@code SUM(bytes)}...): Beam SQL's own {@code
 * CombineFn} for it, which skips nulls as SQL does, and where its argument is among a record's
 * {@code Event.columns()}.
 *
 * @param argumentSlot the argument's place in {@code Event.columns()}; -1 for {@code COUNT(*)}
 * @param argumentType the type of the argument; null for {@code COUNT(*)}
 * @param separatorSlot the place of {@code LISTAGG}'s separator; -1 when there is none
 * @param ordered whether the call takes each value with its record's place in the order records
 *     arrived ({@code FIRST_VALUE}, {@code LAST_VALUE}, {@code LISTAGG})
 */
record Aggregation(
    String name,
    CombineFn<Object, ?, Object> combineFn,
    int argumentSlot,
    @Nullable ColumnType argumentType,
    int separatorSlot,
    boolean ordered)
    implements Serializable {

  /** A call that takes its argument's values in any order. */
  Aggregation(
      String name,
      CombineFn<Object, ?, Object> combineFn,
      int argumentSlot,
      @Nullable ColumnType argumentType) {
    this(name, combineFn, argumentSlot, argumentType, -1, false);
  }

  /** The same call, its arguments {@code by} places later in {@code Event.columns()}. */
  Aggregation shifted(int by) {
    return new Aggregation(
        name,
        combineFn,
        argumentSlot < 0 ? argumentSlot : argumentSlot + by,
        argumentType,
        separatorSlot < 0 ? separatorSlot : separatorSlot + by,
        ordered);
  }

  /** The same call, each argument at the place {@code newSlots} gives for its place. */
  Aggregation withSlots(int[] newSlots) {
    return new Aggregation(
        name,
        combineFn,
        argumentSlot < 0 ? argumentSlot : newSlots[argumentSlot],
        argumentType,
        separatorSlot < 0 ? separatorSlot : newSlots[separatorSlot],
        ordered);
  }

  /** {@code COUNT(*)}, for a query whose groups are its only result. */
  @SuppressWarnings("unchecked")
  static Aggregation countOfRows() {
    return new Aggregation(
        "COUNT", (CombineFn<Object, ?, Object>) (CombineFn<?, ?, ?>) Count.combineFn(), -1, null);
  }
}
