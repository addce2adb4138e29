package dev.tidemark.sql;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamTableFunctionScanRel;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexInputRef;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexLiteral;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * A window table function below the grouping, as Beam SQL planned it: {@code TUMBLE(TABLE t,
 * DESCRIPTOR(rowtime), size)} or {@code HOP(TABLE t, DESCRIPTOR(rowtime), slide, size)}, each of
 * which may stand for Flink's {@code SESSION} or {@code CUMULATE} ({@link FlinkSyntax}): its name
 * as the user wrote it, its time column and windows, and the columns {@code window_start} and
 * {@code window_end} it adds after its input's.
 */
record WindowTableFunction(
    String name, int step, int inputWidth, int timeColumn, EventTimeWindowing windows) {

  /**
   * The function {@code scan} calls, as the step {@code step} of the grouping's input, whose input
   * is {@code inputWidth} columns wide; {@code writtenFrom} is what it stands for when {@link
   * FlinkSyntax} wrote it, null otherwise.
   */
  static WindowTableFunction of(
      BeamTableFunctionScanRel scan, int step, int inputWidth, @Nullable String writtenFrom)
      throws InvalidQueryException {
    RexCall call = (RexCall) scan.getCall();
    String planned = call.getOperator().getName();
    String name = writtenFrom != null ? writtenFrom : planned;
    int durations;
    if (planned.equals("TUMBLE")) {
      durations = 1;
    } else if (planned.equals("HOP")) {
      durations = 2;
    } else {
      throw WindowedQueryPlanner.refused(planned + " windows are not supported");
    }
    RexNode descriptor = call.getOperands().get(0);
    if (!(descriptor instanceof RexCall columns)
        || columns.getOperands().size() != 1
        || !(columns.getOperands().get(0) instanceof RexInputRef time)) {
      throw WindowedQueryPlanner.refused(name + "'s DESCRIPTOR names one column, rowtime");
    }
    if (call.getOperands().size() != 1 + durations) {
      throw WindowedQueryPlanner.refused(name + " with an offset is not supported");
    }
    Duration first = durationOf(call.getOperands().get(1));
    EventTimeWindowing windows =
        switch (name) {
          case "SESSION" -> EventTimeWindowing.sessions(first);
          case "CUMULATE" -> QueryWindows.cumulating(first, durationOf(call.getOperands().get(2)));
          case "HOP" -> QueryWindows.sliding(durationOf(call.getOperands().get(2)), first);
          default -> EventTimeWindowing.fixed(first);
        };
    return new WindowTableFunction(name, step, inputWidth, time.getIndex(), windows);
  }

  private static Duration durationOf(RexNode interval) {
    return Duration.millis(((Number) RexLiteral.value(interval)).longValue());
  }

  /** Which window column {@code at} is, if it is one of this function's; null otherwise. */
  GroupColumn.@Nullable Kind windowColumnOf(WindowedQueryPlanner.TraceAt at) {
    if (at.step() != step) {
      return null;
    }
    if (at.column() == inputWidth) {
      return GroupColumn.Kind.WINDOW_START;
    }
    return at.column() == inputWidth + 1 ? GroupColumn.Kind.WINDOW_END : null;
  }
}
