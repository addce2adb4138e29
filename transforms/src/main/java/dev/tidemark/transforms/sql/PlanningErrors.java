package dev.tidemark.transforms.sql;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.extensions.sql.impl.BeamSqlEnv;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamRelNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.runtime.CalciteContextException;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNodeList;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParseException;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParser;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Beam SQL's planning, with its errors made into one line each: a syntax error with its line and
 * column, an unknown column with the columns there are, any other with Calcite's own words.
 */
final class PlanningErrors {

  private static final Pattern UNKNOWN_COLUMN =
      Pattern.compile("Column '([^']+)' not found in (any table|table '[^']+')");
  private static final Pattern UNKNOWN_TABLE = Pattern.compile("Object '([^']+)' not found");

  private PlanningErrors() {}

  /** {@code query} planned in {@code environment}, whose one table is {@code table}. */
  static BeamRelNode planned(BeamSqlEnv environment, String query, SqlTable table)
      throws InvalidQueryException {
    try {
      return environment.parseQuery(query);
    } catch (RuntimeException e) {
      if (callsFunction(query, "CUMULATE")) {
        throw InvalidQueryException.refused(
            "CUMULATE windows are not supported by sql yet (count and metrics take them as"
                + " --windowSize=SIZE --windowStep=STEP); "
                + WindowedQueryPlanner.WHAT_SQL_TAKES);
      }
      throw describe(e, table);
    }
  }

  /**
   * Whether {@code query}, read by Calcite's parser alone, calls a function named {@code name}:
   * Calcite's validator knows no {@code CUMULATE} and would say so in its own terms.
   */
  private static boolean callsFunction(String query, String name) {
    SqlNode parsed;
    try {
      parsed = SqlParser.create(query).parseQuery();
    } catch (SqlParseException e) {
      return false;
    }
    Boolean found =
        parsed.accept(
            new SqlBasicVisitor<Boolean>() {
              @Override
              public Boolean visit(SqlCall call) {
                if (call.getOperator().getName().equalsIgnoreCase(name)) {
                  return true;
                }
                for (SqlNode operand : call.getOperandList()) {
                  if (operand != null && Boolean.TRUE.equals(operand.accept(this))) {
                    return true;
                  }
                }
                return false;
              }

              @Override
              public Boolean visit(SqlNodeList nodes) {
                for (SqlNode node : nodes) {
                  if (node != null && Boolean.TRUE.equals(node.accept(this))) {
                    return true;
                  }
                }
                return false;
              }
            });
    return Boolean.TRUE.equals(found);
  }

  private static InvalidQueryException describe(Exception e, SqlTable table) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SqlParseException parse) {
        SqlParserPos at = parse.getPos();
        return new InvalidQueryException(
            "syntax error at line "
                + at.getLineNum()
                + ", column "
                + at.getColumnNum()
                + ": "
                + withoutPosition(parse.getMessage()),
            at.getLineNum(),
            at.getColumnNum(),
            null,
            java.util.List.of());
      }
      if (cause instanceof CalciteContextException context) {
        return validation(context, table);
      }
    }
    return InvalidQueryException.refused(
        "the query cannot be planned: "
            + firstLine(rootCause(e).getMessage())
            + "; "
            + WindowedQueryPlanner.WHAT_SQL_TAKES);
  }

  private static InvalidQueryException validation(CalciteContextException e, SqlTable table) {
    String reason = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
    String at = "at line " + e.getPosLine() + ", column " + e.getPosColumn() + ": ";
    Matcher column = UNKNOWN_COLUMN.matcher(reason);
    if (column.find()) {
      return new InvalidQueryException(
          at + "there is no column '" + column.group(1) + "'",
          e.getPosLine(),
          e.getPosColumn(),
          column.group(1),
          table.queryColumns());
    }
    Matcher unknownTable = UNKNOWN_TABLE.matcher(reason);
    if (unknownTable.find()) {
      return new InvalidQueryException(
          at + "there is no table '" + unknownTable.group(1) + "'; the table is " + table.name(),
          e.getPosLine(),
          e.getPosColumn(),
          null,
          java.util.List.of());
    }
    return new InvalidQueryException(
        at + firstLine(reason), e.getPosLine(), e.getPosColumn(), null, java.util.List.of());
  }

  /** The innermost cause of {@code e}. */
  static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** A parser's first line without the position it ends with, which the caller says its way. */
  static String withoutPosition(String message) {
    return firstLine(message).replaceFirst(" at line \\d+, column \\d+\\.?$", "");
  }

  /** The first line of {@code message}, stripped: an error's one line. */
  static String firstLine(String message) {
    String text = String.valueOf(message).strip();
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline).strip();
  }
}
