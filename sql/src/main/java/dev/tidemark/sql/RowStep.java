package dev.tidemark.sql;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexBuilder;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexInputRef;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexProgram;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One step that a query takes on a record's row before the grouping: a projection and filter
 * ({@link Calc}), a projection of plain columns ({@link Columns}), or the two columns a window
 * table function adds ({@link WindowColumns}).
 */
sealed interface RowStep extends Serializable {

  /**
   * The step of a planned projection and filter: {@link Columns} when it only picks columns, as
   * most queries' first step does (S5's picks the time, {@code i} and {@code op}), so that no
   * generated code runs per record for it (and as the last step, none at all: the grouping reads
   * the columns where it picked them); {@link Calc} otherwise.
   */
  static RowStep of(RexProgram program, RexBuilder rexBuilder, SessionTimeZone timeZone) {
    int @Nullable [] columns = program.getCondition() == null ? columnsOf(program) : null;
    return columns != null
        ? new Columns(columns)
        : new Calc(RowExpressions.of(program, rexBuilder, timeZone));
  }

  /** The input column of each of {@code program}'s projections; null when one is not a column. */
  private static int @Nullable [] columnsOf(RexProgram program) {
    int[] sources = new int[program.getProjectList().size()];
    for (int c = 0; c < sources.length; c++) {
      RexNode expression = program.expandLocalRef(program.getProjectList().get(c));
      if (!(expression instanceof RexInputRef column)) {
        return null;
      }
      sources[c] = column.getIndex();
    }
    return sources;
  }

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
   * A {@code SELECT} list of plain columns without a {@code WHERE}: the row's values at {@code
   * sources}, in that order. A column's value is the same Java value as the row holds, as Calcite's
   * code for a column reference gives it.
   */
  record Columns(int[] sources) implements RowStep {
    @Override
    public Object[] apply(Object[] row) {
      Object[] picked = new Object[sources.length];
      for (int c = 0; c < sources.length; c++) {
        picked[c] = row[sources[c]];
      }
      return picked;
    }

    /** Where each of {@code columns}, places in this step's row, is in the row it picks from. */
    int[] sourcesOf(int[] columns) {
      int[] sourced = new int[columns.length];
      for (int c = 0; c < columns.length; c++) {
        sourced[c] = sources[columns[c]];
      }
      return sourced;
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
