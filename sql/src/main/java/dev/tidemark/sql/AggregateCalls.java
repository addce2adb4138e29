package dev.tidemark.sql;

import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.extensions.sql.impl.transform.agg.AggregationCombineFnAdapter;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.core.AggregateCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.type.RelDataType;

/**
 * A query's aggregate calls, as the pane engine runs them ({@link Aggregation}): Beam SQL's own
 * {@code CombineFn} of {@code COUNT}, {@code SUM}, {@code MIN} and {@code MAX}, tidemark's {@code
 * AVG} of numbers, {@link DistinctFn} around any of them for {@code DISTINCT}, and {@link
 * OrderedValueFn} and {@link ListAggFn} for the calls whose answer is in the order records arrived.
 */
final class AggregateCalls {

  private static final Set<String> AGGREGATES =
      Set.of("COUNT", "SUM", "$SUM0", "MIN", "MAX", "AVG");

  /** The aggregates whose value depends on the order records arrived in. */
  private static final Set<String> ORDERED_AGGREGATES =
      Set.of("FIRST_VALUE", "LAST_VALUE", "LISTAGG");

  private AggregateCalls() {}

  /**
   * The aggregation of {@code call} over rows of type {@code grouped}, its arguments' columns added
   * to {@code argumentColumns}.
   *
   * @throws InvalidQueryException naming the call, when {@code sql} does not run it
   */
  static Aggregation of(AggregateCall call, RelDataType grouped, List<Integer> argumentColumns)
      throws InvalidQueryException {
    String name = call.getAggregation().getName();
    if (!AGGREGATES.contains(name) && !ORDERED_AGGREGATES.contains(name)) {
      throw WindowedQueryPlanner.refused(
          name
              + " is not supported; an aggregate is COUNT, SUM, MIN, MAX, AVG, FIRST_VALUE,"
              + " LAST_VALUE or LISTAGG");
    }
    if (call.filterArg >= 0) {
      throw WindowedQueryPlanner.refused(name + "(...) FILTER (WHERE ...) is not supported");
    }
    if (ORDERED_AGGREGATES.contains(name)) {
      return ordered(name, call, grouped, argumentColumns);
    }
    ColumnType outputType = ColumnType.of(call.getType().getSqlTypeName());
    if (outputType == null) {
      throw WindowedQueryPlanner.refused(
          name + " of a " + call.getType().getFullTypeString() + " is not supported");
    }
    Schema.Field output = Schema.Field.of("value", outputType.aggregatedType()).withNullable(true);
    CombineFn<Object, ?, Object> combineFn =
        name.equals("AVG")
            ? averageOf(outputType, call, output)
            : beamSqlCombineFn(call, output, name);
    if (call.isDistinct()) {
      combineFn = distinct(combineFn);
    }
    if (call.getArgList().isEmpty()) {
      return new Aggregation(name, combineFn, -1, null);
    }
    int column = call.getArgList().get(0);
    ColumnType argumentType = argumentType(name, grouped, column);
    argumentColumns.add(column);
    return new Aggregation(name, combineFn, argumentColumns.size() - 1, argumentType);
  }

  /** The type of column {@code column} of {@code grouped}, which {@code name} aggregates. */
  private static ColumnType argumentType(String name, RelDataType grouped, int column)
      throws InvalidQueryException {
    ColumnType type = ColumnType.of(grouped.getFieldList().get(column).getType().getSqlTypeName());
    if (type == null) {
      throw WindowedQueryPlanner.refused(
          name + " of " + grouped.getFieldList().get(column).getName() + " is not supported");
    }
    return type;
  }

  /** {@code FIRST_VALUE}, {@code LAST_VALUE} or {@code LISTAGG}, in the order records arrived. */
  @SuppressWarnings("unchecked")
  private static Aggregation ordered(
      String name, AggregateCall call, RelDataType grouped, List<Integer> argumentColumns)
      throws InvalidQueryException {
    if (call.isDistinct()) {
      throw WindowedQueryPlanner.refused(name + "(DISTINCT ...) is not supported");
    }
    int column = call.getArgList().get(0);
    ColumnType argumentType = argumentType(name, grouped, column);
    argumentColumns.add(column);
    int slot = argumentColumns.size() - 1;
    int separatorSlot = -1;
    if (call.getArgList().size() > 1) {
      argumentColumns.add(call.getArgList().get(1));
      separatorSlot = argumentColumns.size() - 1;
    }
    CombineFn<?, ?, ?> combineFn =
        switch (name) {
          case "FIRST_VALUE" -> OrderedValueFn.first();
          case "LAST_VALUE" -> OrderedValueFn.last();
          default -> new ListAggFn();
        };
    return new Aggregation(
        name, (CombineFn<Object, ?, Object>) combineFn, slot, argumentType, separatorSlot, true);
  }

  /**
   * {@code AVG}: tidemark's own of whole and floating-point numbers (Beam SQL's rounds to ten
   * significant digits), Beam SQL's of a {@code DECIMAL}.
   */
  @SuppressWarnings("unchecked")
  private static CombineFn<Object, ?, Object> averageOf(
      ColumnType type, AggregateCall call, Schema.Field output) {
    return switch (type) {
      case BIGINT, INTEGER ->
          (CombineFn<Object, ?, Object>) (CombineFn<?, ?, ?>) IntegerAverageFn.of(type);
      case DOUBLE, FLOAT ->
          (CombineFn<Object, ?, Object>) (CombineFn<?, ?, ?>) FloatingAverageFn.of(type);
      default -> beamSqlCombineFn(call, output, "AVG");
    };
  }

  @SuppressWarnings("unchecked")
  private static CombineFn<Object, ?, Object> distinct(CombineFn<Object, ?, Object> combineFn) {
    return (CombineFn<Object, ?, Object>) (CombineFn<?, ?, ?>) new DistinctFn(combineFn);
  }

  @SuppressWarnings("unchecked")
  private static CombineFn<Object, ?, Object> beamSqlCombineFn(
      AggregateCall call, Schema.Field output, String name) {
    // Beam SQL's aggregate of every value; DistinctFn gives it each distinct value once.
    return (CombineFn<Object, ?, Object>)
        AggregationCombineFnAdapter.createCombineFn(call.withDistinct(false), output, name);
  }
}
