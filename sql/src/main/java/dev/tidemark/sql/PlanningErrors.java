package dev.tidemark.sql;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.extensions.sql.impl.BeamSqlEnv;
import org.apache.beam.sdk.extensions.sql.impl.rel.BeamRelNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.runtime.CalciteContextException;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParseException;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Beam SQL's planning, with its errors made into one line each: a syntax error with its line and
 * column, an unknown column with the columns there are, any other with Calcite's own words.
 */
final class PlanningErrors {

  private static final Pattern UNKNOWN_COLUMN =
      Pattern.compile("Column '([^']+)' not found in (any table|table '[^']+')");
  private static final Pattern UNKNOWN_TABLE = Pattern.compile("Object '([^']+)' not found");
  private static final Pattern UNKNOWN_FUNCTION =
      Pattern.compile("No match found for function signature ([A-Za-z_0-9]+)\\((.*)\\)");

  private PlanningErrors() {}

  /**
   * {@code written} planned in {@code environment}, whose one table is {@code table}; an error's
   * place is in the query as the user wrote it.
   */
  static BeamRelNode planned(BeamSqlEnv environment, WrittenQuery written, SqlTable table)
      throws InvalidQueryException {
    try {
      return environment.parseQuery(written.query());
    } catch (RuntimeException e) {
      throw describe(e, written, table);
    }
  }

  private static InvalidQueryException describe(Exception e, WrittenQuery written, SqlTable table) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SqlParseException parse) {
        SqlParserPos pos = parse.getPos();
        int[] at = written.placeInQuery(pos.getLineNum(), pos.getColumnNum());
        return new InvalidQueryException(
            "syntax error at line "
                + at[0]
                + ", column "
                + at[1]
                + ": "
                + withoutPosition(parse.getMessage())
                + ReservedWords.hint(written.original(), table.columns()),
            at[0],
            at[1],
            null,
            java.util.List.of());
      }
      if (cause instanceof CalciteContextException context) {
        return validation(context, written, table);
      }
    }
    return InvalidQueryException.refused(
        "the query cannot be planned: "
            + firstLine(rootCause(e).getMessage())
            + "; "
            + WindowedQueryPlanner.WHAT_SQL_TAKES);
  }

  private static InvalidQueryException validation(
      CalciteContextException e, WrittenQuery written, SqlTable table) {
    String reason = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
    int[] place = written.placeInQuery(e.getPosLine(), e.getPosColumn());
    String at = "at line " + place[0] + ", column " + place[1] + ": ";
    Matcher column = UNKNOWN_COLUMN.matcher(reason);
    if (column.find()) {
      return new InvalidQueryException(
          at + "there is no column '" + column.group(1) + "'",
          place[0],
          place[1],
          column.group(1),
          table.queryColumns());
    }
    Matcher unknownTable = UNKNOWN_TABLE.matcher(reason);
    if (unknownTable.find()) {
      return new InvalidQueryException(
          at + "there is no table '" + unknownTable.group(1) + "'; the table is " + table.name(),
          place[0],
          place[1],
          null,
          java.util.List.of());
    }
    Matcher function = UNKNOWN_FUNCTION.matcher(reason);
    if (function.find()) {
      return new InvalidQueryException(
          at
              + function.group(1)
              + " is not a function sql takes with these arguments ("
              + function.group(2).replaceAll("[<>]", "").toLowerCase(java.util.Locale.ROOT)
              + "); sql takes Calcite's standard functions and Flink's DATE_FORMAT, CONCAT,"
              + " CONCAT_WS, IF, IFNULL, SPLIT_INDEX, REGEXP_EXTRACT, REGEXP_REPLACE, TO_TIMESTAMP,"
              + " FROM_UNIXTIME, UNIX_TIMESTAMP,"
              + " LPAD, RPAD, LEFT, RIGHT, REPEAT, REVERSE, GREATEST, LEAST, MD5, SHA1, TO_BASE64"
              + " and FROM_BASE64",
          place[0],
          place[1],
          null,
          java.util.List.of());
    }
    return new InvalidQueryException(
        at + firstLine(reason) + ReservedWords.hint(written.original(), table.columns()),
        place[0],
        place[1],
        null,
        java.util.List.of());
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
