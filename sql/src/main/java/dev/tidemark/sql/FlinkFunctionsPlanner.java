package dev.tidemark.sql;

import java.util.Collection;
import org.apache.beam.sdk.extensions.sql.impl.CalciteQueryPlanner;
import org.apache.beam.sdk.extensions.sql.impl.JdbcConnection;
import org.apache.beam.sdk.extensions.sql.impl.QueryPlanner;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlOperatorTable;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.type.SqlTypeName;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.tools.FrameworkConfig;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.tools.Frameworks;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.tools.RuleSet;

/**
 * Beam SQL's Calcite planner with the functions of Flink SQL that Calcite's library already has
 * with Flink's meaning: variadic {@code CONCAT} (null when any argument is), {@code CONCAT_WS}
 * (which skips null arguments), {@code IF} and {@code REGEXP_REPLACE} (Java's regular expressions).
 * Their code is Calcite's own, generated as every other expression's. Beam SQL has no other place
 * to add an operator than its planner's configuration, which {@code BeamSqlEnv} builds from a
 * planner class's {@code FACTORY}.
 */
public final class FlinkFunctionsPlanner extends CalciteQueryPlanner {

  /** How {@code BeamSqlEnv} makes this planner ({@code setQueryPlannerClassName}). */
  public static final QueryPlanner.Factory FACTORY = FlinkFunctionsPlanner::new;

  private static final SqlOperatorTable FLINK_FUNCTIONS =
      SqlOperatorTables.of(
          SqlLibraryOperators.CONCAT_FUNCTION,
          SqlLibraryOperators.CONCAT_WS_SPARK,
          SqlLibraryOperators.IF,
          SqlLibraryOperators.REGEXP_REPLACE_3,
          SqlLibraryOperators.LPAD,
          SqlLibraryOperators.RPAD,
          SqlLibraryOperators.LEFT,
          SqlLibraryOperators.RIGHT,
          SqlLibraryOperators.REPEAT,
          SqlLibraryOperators.REVERSE,
          SqlLibraryOperators.IFNULL,
          SqlLibraryOperators.GREATEST,
          SqlLibraryOperators.LEAST,
          SqlLibraryOperators.MD5,
          SqlLibraryOperators.SHA1,
          SqlLibraryOperators.TO_BASE64,
          SqlLibraryOperators.FROM_BASE64);

  private FlinkFunctionsPlanner(JdbcConnection connection, Collection<RuleSet> ruleSets) {
    super(connection, ruleSets);
  }

  @Override
  public FrameworkConfig defaultConfig(JdbcConnection connection, Collection<RuleSet> ruleSets) {
    // Flink's STRING, as CAST(x AS STRING) names it: VARCHAR, a type of the query's schema.
    connection.getRootSchema().add("STRING", types -> types.createSqlType(SqlTypeName.VARCHAR));
    FrameworkConfig beams = super.defaultConfig(connection, ruleSets);
    return Frameworks.newConfigBuilder(beams)
        .operatorTable(SqlOperatorTables.chain(FLINK_FUNCTIONS, beams.getOperatorTable()))
        .build();
  }
}
