package dev.tidemark.sql;

import java.io.Serializable;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One step that a query takes on a record's row before the grouping: a projection and filter
 * ({@link Calc}), or the two columns a window table function adds ({@link WindowColumns}).
 */
sealed interface RowStep extends Serializable {

  /** The row after this step, or null when the step filters it out. */
  Object @Nullable [] apply(Object[] row);

  /** A {@code SELECT} list and its {@code WHERE}, by Calcite's code. */
  record Calc(RowExpressions expressions) implements RowStep {
    @Override
    public Object @Nullable [] apply(Object[] row) {
      return expressions.apply(row);
    }
  }

  /**
   * {@code TUMBLE(TABLE t, DESCRIPTOR(rowtime), size)}: the row with {@code window_start} and
   * {@code window_end} of its tumbling window appended, as epoch milliseconds.
   */
  record WindowColumns(int timeColumn, long sizeMillis) implements RowStep {
    @Override
    public Object[] apply(Object[] row) {
      long time = (Long) row[timeColumn];
      long start = Math.floorDiv(time, sizeMillis) * sizeMillis;
      Object[] widened = Arrays.copyOf(row, row.length + 2);
      widened[row.length] = start;
      widened[row.length + 1] = start + sizeMillis;
      return widened;
    }
  }
}
