package dev.tidemark.sql;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.WindowKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.extensions.sql.impl.BeamSqlEnv;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamAggregationRel;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamCalcRel;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamIOSourceRel;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamRelNode;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamTableFunctionScanRel;
import org.apache.beam.sdk.extensions.sql.meta.provider.ReadOnlyTableProvider;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.RelNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.core.Aggregate;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.core.AggregateCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.type.RelDataType;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexInputRef;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Plans a query with Beam SQL's planner, then takes the plan apart into what tidemark's pane engine
 * runs ({@link WindowedQuery}), or refuses it, naming the construct. {@code sql} takes:
 *
 * <pre>{@code
 * SELECT expressions FROM table [WHERE condition]
 * GROUP BY TUMBLE(rowtime, INTERVAL ...) [, expressions] [HAVING condition]
 * GROUP BY HOP(rowtime, INTERVAL slide, INTERVAL size) [, expressions] [HAVING condition]
 * GROUP BY SESSION(rowtime, INTERVAL gap) [, expressions] [HAVING condition]
 *
 * SELECT expressions FROM TABLE(TUMBLE(TABLE table, DESCRIPTOR(rowtime), INTERVAL ...))
 * [WHERE condition] GROUP BY window_start, window_end [, expressions] [HAVING condition]
 * (and the same over TABLE(HOP(TABLE table, DESCRIPTOR(rowtime), INTERVAL slide, INTERVAL size)),
 * TABLE(CUMULATE(TABLE table, DESCRIPTOR(rowtime), INTERVAL step, INTERVAL size)) and
 * TABLE(SESSION(TABLE table PARTITION BY columns, DESCRIPTOR(rowtime), INTERVAL gap)))
 * }</pre>
 *
 * <p>with {@code COUNT}, {@code SUM}, {@code MIN}, {@code MAX} and {@code AVG}, each with {@code
 * DISTINCT} too, {@code FIRST_VALUE}, {@code LAST_VALUE} and {@code LISTAGG}, {@code TUMBLE_START},
 * {@code TUMBLE_END}, {@code HOP_START}, {@code HOP_END}, {@code SESSION_START}, {@code
 * SESSION_END}, and Flink's functions ({@link FlinkFunctionsPlanner}, {@link FlinkStringFunctions},
 * {@link FlinkTimeFunctions}, {@link DateFormatFunction}). {@link FlinkSyntax} writes the sessions
 * and cumulating windows as windows Beam's planner takes. A row is in every {@code HOP} or {@code
 * CUMULATE} window that holds its {@code rowtime}, and its session is known only once rows are
 * grouped, so below the grouping such a table function's {@code window_start} and {@code
 * window_end} may only be grouped by. The plan it takes apart is Beam's: a projection and filter
 * ({@link BeamCalcRel}) above and below one {@link BeamAggregationRel}, over the table ({@link
 * BeamIOSourceRel}), with at most one window table function ({@link BeamTableFunctionScanRel})
 * between.
 */
final class WindowedQueryPlanner {

  /** What {@code sql} takes, for the end of each refusal. */
  static final String WHAT_SQL_TAKES =
      "sql takes SELECT ... FROM a table [WHERE ...] GROUP BY TUMBLE(rowtime, INTERVAL ...),"
          + " HOP(rowtime, INTERVAL slide, INTERVAL size) or SESSION(rowtime, INTERVAL gap)"
          + " [, columns] [HAVING ...], or the TUMBLE, HOP, CUMULATE or SESSION window table"
          + " function grouped by window_start and window_end, with COUNT,"
          + " SUM, MIN, MAX and AVG, and window Top-N (ROW_NUMBER() OVER (PARTITION BY"
          + " window_start, window_end ORDER BY ...) <= N) over either or over a window table"
          + " function";

  private final SqlTable table;

  /** The steps before the grouping, from the table's row on, with each step's output type. */
  private final List<RowStep> steps = new ArrayList<>();

  private final List<Trace> traces = new ArrayList<>();

  /** What the planned window table function stands for, if {@link FlinkSyntax} wrote it. */
  private final @Nullable String writtenWindow;

  private WindowedQueryPlanner(SqlTable table, @Nullable String writtenWindow) {
    this.table = table;
    this.writtenWindow = writtenWindow;
  }

  static WindowedQuery plan(SqlTable table, String query) throws InvalidQueryException {
    String shadowed = ReservedWords.shadowedByAFunction(query, table.columns());
    if (shadowed != null) {
      throw InvalidQueryException.refused(
          "'"
              + shadowed
              + "' is a reserved word in SQL: unquoted, the query reads SQL's "
              + shadowed.toUpperCase(Locale.ROOT)
              + " function, not the column; write it `"
              + shadowed
              + "`");
    }
    RankedQuery ranked = RankedQuery.of(query, table);
    if (ranked != null) {
      WindowedQuery ranks;
      try {
        ranks = planAggregate(table, ranked.planned().query());
      } catch (InvalidQueryException e) {
        throw e.placedIn(ranked.planned());
      }
      return ranks.withRanking(WindowRankings.of(ranked, ranks));
    }
    return planAggregate(table, query);
  }

  /** {@code query}, a window aggregate, planned. */
  private static WindowedQuery planAggregate(SqlTable table, String query)
      throws InvalidQueryException {
    WrittenQuery written = FlinkSyntax.of(query, table.timeZone().zone());
    BeamRelNode root = PlanningErrors.planned(environment(table), written, table);
    return new WindowedQueryPlanner(table, written.windowFunction()).takeApart(root);
  }

  /**
   * The condition of {@code written}, a query {@code SELECT * FROM rows WHERE condition} over a
   * window Top-N's ranked rows, whose columns are {@code names} of types {@code types}: compiled,
   * the row it keeps unchanged; null when the planner finds it always true.
   *
   * @throws InvalidQueryException when the condition is not one on a ranked row's columns
   */
  static @Nullable RowExpressions rankedRowCondition(
      WrittenQuery written, List<String> names, List<ColumnType> types, SessionTimeZone zone)
      throws InvalidQueryException {
    SqlTable rows = SqlTable.ofRankedRows(RankedQuery.RANKED_ROWS, names, types, zone);
    BeamRelNode root = PlanningErrors.planned(environment(rows), written, rows);
    if (root instanceof BeamCalcRel calc && calc.getInput() instanceof BeamIOSourceRel) {
      return RowExpressions.of(calc.getProgram(), calc.getCluster().getRexBuilder(), zone);
    }
    if (root instanceof BeamIOSourceRel) {
      return null;
    }
    throw refused(
        "the outer WHERE of a window Top-N, beside its bound of the rank, takes conditions on the"
            + " ranked rows' columns, without a subquery");
  }

  private static BeamSqlEnv environment(SqlTable table) {
    return BeamSqlEnv.builder(
            new ReadOnlyTableProvider("tidemark", Map.of(table.name(), table.plannerTable())))
        .setQueryPlannerClassName(FlinkFunctionsPlanner.class.getName())
        .addUdf("DATE_FORMAT", DateFormatFunction.class, "eval")
        .addUdf("FROM_UNIXTIME", FlinkTimeFunctions.class, "fromUnixtime")
        .addUdf("UNIX_TIMESTAMP", FlinkTimeFunctions.class, "unixTimestamp")
        .addUdf("UNIX_TIMESTAMP", FlinkTimeFunctions.class, "unixTimestampNow")
        .addUdf("TO_TIMESTAMP", FlinkTimeFunctions.class, "toTimestamp")
        .addUdf("TO_TIMESTAMP", FlinkTimeFunctions.class, "toTimestampIn")
        .addUdf("SPLIT_INDEX", FlinkStringFunctions.class, "splitIndex")
        .addUdf("REGEXP_EXTRACT", FlinkStringFunctions.class, "regexpExtract")
        .addUdf("REGEXP_EXTRACT", FlinkStringFunctions.class, "regexpExtractGroup")
        .setPipelineOptions(PipelineOptionsFactory.create())
        .build();
  }

  private WindowedQuery takeApart(RelNode root) throws InvalidQueryException {
    RelNode node = root;
    BeamCalcRel select = null;
    if (node instanceof BeamCalcRel calc) {
      select = calc;
      node = calc.getInput();
    }
    if (!(node instanceof BeamAggregationRel aggregate)) {
      throw InvalidQueryException.refused(Refusals.describe(root) + "; " + WHAT_SQL_TAKES);
    }
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      throw refused("GROUPING SETS, ROLLUP and CUBE are not supported");
    }
    AggregateWindow window = AggregateWindow.of(aggregate);
    WindowTableFunction function = stepsBelow(aggregate.getInput());
    if (window != null && function != null) {
      throw refused("a GROUP BY window over a window table function is not supported");
    }
    EventTimeWindowing windows;
    List<GroupColumn> groupColumns = new ArrayList<>();
    List<Integer> keyColumns = new ArrayList<>();
    List<ColumnType> keyTypes = new ArrayList<>();
    List<String> keyNames = new ArrayList<>();
    RelDataType grouped = aggregate.getInput().getRowType();
    if (window != null) {
      windows = QueryWindows.of(window);
      if (traceToTable(window.groupColumn()) != table.columns().size()) {
        throw refused(
            "a window takes rowtime, the event time of each row; another time column is not"
                + " supported");
      }
    } else if (function != null) {
      windows = function.windows();
    } else {
      throw refused(
          "a GROUP BY without TUMBLE(rowtime, INTERVAL ...) or HOP(...) is not supported: a"
              + " stream's groups never end");
    }
    // Windows start at multiples of the slide (the size, for tumbling windows; the largest size,
    // for cumulating ones); sessions start where their first records are.
    WindowKind kind = windows.kind();
    if (!kind.merges()) {
      table
          .timeZone()
          .checkWindows(kind.shape() == WindowKind.Shape.CUMULATING ? kind.size() : kind.slide());
    }
    boolean windowGrouped = window != null;
    for (int column : aggregate.getGroupSet().asList()) {
      if (window != null && column == window.groupColumn()) {
        groupColumns.add(GroupColumn.window(GroupColumn.Kind.WINDOW_START));
        continue;
      }
      if (function != null) {
        GroupColumn.@Nullable Kind windowColumn = function.windowColumnOf(traceToStep(column));
        if (windowColumn != null) {
          groupColumns.add(GroupColumn.window(windowColumn));
          windowGrouped = true;
          continue;
        }
      }
      RelDataTypeField field = grouped.getFieldList().get(column);
      ColumnType type = ColumnType.of(field.getType().getSqlTypeName());
      if (type == null) {
        throw refused(
            "GROUP BY "
                + field.getName()
                + ": a group column is a number, a text, a BOOLEAN, a TIMESTAMP or a DATE; this"
                + " one is "
                + field.getType().getFullTypeString());
      }
      groupColumns.add(GroupColumn.key(keyColumns.size()));
      keyColumns.add(column);
      keyTypes.add(type);
      keyNames.add(field.getName());
    }
    if (!windowGrouped) {
      throw refused(
          "a GROUP BY over a window table function without window_start or window_end is not"
              + " supported: a stream's groups never end");
    }
    List<Integer> argumentColumns = new ArrayList<>();
    List<Aggregation> aggregations = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      aggregations.add(AggregateCalls.of(call, grouped, argumentColumns));
    }
    RelDataType resultType = select != null ? select.getRowType() : aggregate.getRowType();
    List<String> resultNames = new ArrayList<>();
    List<ColumnType> resultTypes = new ArrayList<>();
    int[] resultGroupedColumns = new int[resultType.getFieldCount()];
    for (RelDataTypeField field : resultType.getFieldList()) {
      resultGroupedColumns[field.getIndex()] =
          select == null ? field.getIndex() : Trace.of(select).source(field.getIndex());
      ColumnType type = ColumnType.of(field.getType().getSqlTypeName());
      if (type == null) {
        throw refused(
            "result column "
                + field.getName()
                + " is a "
                + field.getType().getFullTypeString()
                + "; a result column is a number, a text, a BOOLEAN or a TIMESTAMP");
      }
      resultNames.add(field.getName());
      resultTypes.add(type);
    }
    int[] keys = keyColumns.stream().mapToInt(Integer::intValue).toArray();
    int[] arguments = argumentColumns.stream().mapToInt(Integer::intValue).toArray();
    // A last step that only picks columns is not run: the grouping reads them where it found them.
    if (!steps.isEmpty() && steps.get(steps.size() - 1) instanceof RowStep.Columns picked) {
      steps.remove(steps.size() - 1);
      keys = picked.sourcesOf(keys);
      arguments = picked.sourcesOf(arguments);
    }
    return new WindowedQuery(
        table,
        steps,
        windows,
        keys,
        keyTypes,
        keyNames,
        arguments,
        groupColumns,
        aggregations,
        select == null
            ? null
            : RowExpressions.of(
                select.getProgram(), select.getCluster().getRexBuilder(), table.timeZone()),
        resultNames,
        resultTypes,
        resultGroupedColumns,
        null);
  }

  /**
   * Reads the steps between the table and the grouping into {@link #steps}: projections and
   * filters, and at most one window table function, which it returns (null when there is none).
   */
  private @Nullable WindowTableFunction stepsBelow(RelNode input) throws InvalidQueryException {
    List<RelNode> chain = new ArrayList<>();
    RelNode node = input;
    while (!(node instanceof BeamIOSourceRel)) {
      if (!(node instanceof BeamCalcRel) && !(node instanceof BeamTableFunctionScanRel)) {
        throw InvalidQueryException.refused(Refusals.describe(node) + "; " + WHAT_SQL_TAKES);
      }
      chain.add(node);
      node = node.getInput(0);
    }
    Collections.reverse(chain);
    WindowTableFunction function = null;
    int width = table.columns().size() + 1;
    for (RelNode step : chain) {
      if (step instanceof BeamCalcRel calc) {
        steps.add(
            RowStep.of(calc.getProgram(), calc.getCluster().getRexBuilder(), table.timeZone()));
        traces.add(Trace.of(calc));
      } else {
        if (function != null) {
          throw refused("more than one window table function is not supported");
        }
        function =
            WindowTableFunction.of(
                (BeamTableFunctionScanRel) step, steps.size(), width, writtenWindow);
        int timeColumn = function.timeColumn();
        if (traceToTable(timeColumn, steps.size()) != table.columns().size()) {
          throw refused(
              "a window table function's DESCRIPTOR takes rowtime, the event time of each row;"
                  + " another time column is not supported");
        }
        // For windows that overlap, the bounds of the row's slice: they are only grouped by.
        steps.add(
            new RowStep.WindowColumns(timeColumn, function.windows().kind().slice().getMillis()));
        traces.add(Trace.widening(width));
      }
      width = step.getRowType().getFieldCount();
    }
    if (function != null && !function.windows().isTumbling()) {
      QueryWindows.onlyGroupedBy(chain, function);
    }
    return function;
  }

  /** The column of the table's row that column {@code column} of the grouping's input is, or -1. */
  private int traceToTable(int column) {
    return traceToTable(column, steps.size());
  }

  /** The table column that column {@code column} after the first {@code stepCount} steps is. */
  private int traceToTable(int column, int stepCount) {
    int at = column;
    for (int s = stepCount - 1; s >= 0 && at >= 0; s--) {
      at = traces.get(s).source(at);
    }
    return at;
  }

  /**
   * Where column {@code column} of the grouping's input comes from: its column in the output of the
   * window table function, if it is one of that function's columns passed on unchanged.
   */
  private TraceAt traceToStep(int column) {
    int at = column;
    for (int s = steps.size() - 1; s >= 0 && at >= 0; s--) {
      if (steps.get(s) instanceof RowStep.WindowColumns) {
        return new TraceAt(s, at);
      }
      at = traces.get(s).source(at);
    }
    return new TraceAt(-1, -1);
  }

  /** A column {@code column} of the output of step {@code step}; -1 when it is none. */
  record TraceAt(int step, int column) {}

  static InvalidQueryException refused(String what) {
    return InvalidQueryException.refused(what + "; " + WHAT_SQL_TAKES);
  }

  /** How a column of a step's output comes from the step's input: the column, or -1 if computed. */
  private interface Trace {
    int source(int column);

    static Trace of(BeamCalcRel calc) {
      return column -> {
        RexNode projected =
            calc.getProgram().expandLocalRef(calc.getProgram().getProjectList().get(column));
        return projected instanceof RexInputRef ref ? ref.getIndex() : -1;
      };
    }

    static Trace widening(int inputWidth) {
      return column -> column < inputWidth ? column : -1;
    }
  }
}
