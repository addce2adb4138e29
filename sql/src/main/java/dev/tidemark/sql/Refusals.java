package dev.tidemark.sql;

import java.util.Map;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.RelNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlKind;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNodeList;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.util.SqlBasicVisitor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The construct of a query that makes its plan one {@code sql} does not run, named as the query
 * wrote it: Beam SQL turns each into a node of its own ({@code BeamCoGBKJoinRel} for a join, {@code
 * BeamSortRel} for {@code ORDER BY}...).
 */
final class Refusals {

  private static final Map<String, String> CONSTRUCTS =
      Map.ofEntries(
          Map.entry("BeamCoGBKJoinRel", "a JOIN"),
          Map.entry("BeamSideInputJoinRel", "a JOIN"),
          Map.entry("BeamSideInputLookupJoinRel", "a JOIN"),
          Map.entry("BeamSortRel", "ORDER BY or LIMIT on a stream"),
          Map.entry("BeamWindowRel", "an OVER window"),
          Map.entry("BeamUnionRel", "UNION"),
          Map.entry("BeamIntersectRel", "INTERSECT"),
          Map.entry("BeamMinusRel", "EXCEPT"),
          Map.entry("BeamValuesRel", "VALUES"),
          Map.entry("BeamUncollectRel", "UNNEST"),
          Map.entry("BeamUnnestRel", "UNNEST"),
          Map.entry("BeamMatchRel", "MATCH_RECOGNIZE"),
          Map.entry("BeamAggregationRel", "more than one GROUP BY"));

  private Refusals() {}

  /**
   * Refuses a query with an {@code OVER} window, before Beam's planner fails on it in its own
   * words: a {@code ROW_NUMBER()} that is not in a window Top-N's shape ({@link RankedQuery}) with
   * that shape, any other as an {@code OVER} aggregation.
   *
   * @throws InvalidQueryException naming the construct, when {@code parsed} has one
   */
  static void refuseOverWindows(SqlNode parsed) throws InvalidQueryException {
    SqlCall over = parsed.accept(new FirstOver());
    if (over == null) {
      return;
    }
    SqlNode function = over.operand(0);
    boolean rowNumber =
        function instanceof SqlCall call
            && call.getOperator().getName().equalsIgnoreCase("ROW_NUMBER");
    throw WindowedQueryPlanner.refused(
        rowNumber
            ? "ROW_NUMBER() OVER outside a window Top-N is not supported: a window Top-N ranks"
                + " the rows of a window aggregate or window table function by ROW_NUMBER() OVER"
                + " (PARTITION BY window_start, window_end ...) in a subquery, and keeps those"
                + " WHERE rownum <= N"
            : "an OVER aggregation (" + function + " OVER ...) is not supported");
  }

  /** The first {@code OVER} call of a parse tree, or null. */
  private static final class FirstOver extends SqlBasicVisitor<@Nullable SqlCall> {
    @Override
    public @Nullable SqlCall visit(SqlCall call) {
      if (call.getKind() == SqlKind.OVER) {
        return call;
      }
      for (SqlNode operand : call.getOperandList()) {
        SqlCall found = operand == null ? null : operand.accept(this);
        if (found != null) {
          return found;
        }
      }
      return null;
    }

    @Override
    public @Nullable SqlCall visit(SqlNodeList list) {
      for (SqlNode node : list) {
        SqlCall found = node == null ? null : node.accept(this);
        if (found != null) {
          return found;
        }
      }
      return null;
    }
  }

  /**
   * What in the plan under {@code root} is not supported: the first construct found that {@code
   * sql} does not take, or, when there is none, the lack of a windowed {@code GROUP BY}.
   */
  static String describe(RelNode root) {
    String construct = firstConstruct(root, true);
    return construct != null
        ? construct + " is not supported"
        : "a query without GROUP BY TUMBLE(rowtime, INTERVAL ...) is not supported: it has no"
            + " windows to fire";
  }

  private static String firstConstruct(RelNode node, boolean top) {
    String name = CONSTRUCTS.get(node.getClass().getSimpleName());
    if (name != null && !(top && name.equals("more than one GROUP BY"))) {
      return name;
    }
    for (RelNode input : node.getInputs()) {
      String below = firstConstruct(input, false);
      if (below != null) {
        return below;
      }
    }
    return null;
  }
}
