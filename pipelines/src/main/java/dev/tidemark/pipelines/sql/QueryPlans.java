package dev.tidemark.pipelines.sql;

import dev.tidemark.sql.WindowedQuery;
import java.util.function.Supplier;

/**
 * Where {@code sql} gets its planned query: planned now, or as an earlier run planned the same
 * query over the same table. Planning builds Beam SQL's environment and runs Calcite's validator
 * and planner, most of what {@code sql}'s start costs more than {@code metrics}'; a plan read back
 * needs neither.
 */
@FunctionalInterface
public interface QueryPlans {

  /** Plans every query now: what construction does unless the command line gives it saved plans. */
  QueryPlans NONE = (inputs, planner) -> planner.get();

  /**
   * The query that {@code planner} plans, or the same query planned before: {@code inputs} holds
   * everything its plan is made from (the query's text, the table, the time zone), so two calls
   * with equal inputs have equal plans. {@code planner} throws what it would for a query that does
   * not plan, and a query that does not plan is never saved.
   */
  WindowedQuery plan(String inputs, Supplier<WindowedQuery> planner);
}
