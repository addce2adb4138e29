package dev.tidemark.sql;

import java.util.Map;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rel.RelNode;

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
