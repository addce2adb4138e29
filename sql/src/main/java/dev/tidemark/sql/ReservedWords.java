package dev.tidemark.sql;

import java.io.StringReader;
import java.util.Collection;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.beam.sdk.extensions.sql.impl.parser.impl.BeamSqlParserImpl;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlOperator;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlSyntax;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.flink.sql.parser.impl.FlinkSqlParserImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The reserved words of the SQL that {@code sql} parses (Beam SQL's parser, Calcite's grammar), for
 * an error that says why a column named {@code user} or {@code timestamp} did not parse, and for a
 * query that would read SQL's {@code USER} where it means the column {@code user}: a reserved word
 * names a column only in backticks. Read from the parser's and Calcite's own lists.
 */
final class ReservedWords {

  private static final Pattern STRING_LITERAL = Pattern.compile("'(?:[^']|'')*'");

  private ReservedWords() {}

  /**
   * "; 'user' is a reserved word in SQL: write it `user`" for the first of {@code names} that is a
   * reserved word and stands in {@code text} without backticks; empty when none does.
   */
  static String hint(String text, Collection<String> names) {
    SqlAbstractParserImpl.Metadata metadata =
        BeamSqlParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();
    return hint(text, names, metadata::isReservedWord);
  }

  /**
   * The same hint for a table definition or a column list, which Flink SQL's parser reads: its
   * reserved words are Calcite's and Flink's own ({@code BYTES}, {@code STRING}, ...).
   */
  static String hintInFlinkSql(String text, Collection<String> names) {
    org.apache.calcite.sql.parser.SqlAbstractParserImpl.Metadata metadata =
        FlinkSqlParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();
    return hint(text, names, metadata::isReservedWord);
  }

  private static String hint(String text, Collection<String> names, Predicate<String> reserved) {
    for (String name : names) {
      if (reserved.test(name.toUpperCase(Locale.ROOT)) && standsUnquoted(text, name)) {
        return "; '" + name + "' is a reserved word in SQL: write it `" + name + "`";
      }
    }
    return "";
  }

  /**
   * The first of {@code columns} that {@code query} names without backticks where SQL reads a
   * function without parentheses ({@code USER}, {@code CURRENT_DATE}, ...), which Calcite's
   * standard operator table lists: there the query would get the function's value, not the
   * column's. Null when there is none.
   */
  static @Nullable String shadowedByAFunction(String query, Collection<String> columns) {
    for (SqlOperator operator : SqlStdOperatorTable.instance().getOperatorList()) {
      if (operator.getSyntax() != SqlSyntax.FUNCTION_ID) {
        continue;
      }
      for (String column : columns) {
        if (column.equalsIgnoreCase(operator.getName()) && standsUnquoted(query, column)) {
          return column;
        }
      }
    }
    return null;
  }

  /**
   * Whether {@code name} stands in {@code text} as a word, outside backticks, quotes and strings.
   */
  private static boolean standsUnquoted(String text, String name) {
    return Pattern.compile(
            "(?<![`\"\\w])" + Pattern.quote(name) + "(?![`\"\\w])", Pattern.CASE_INSENSITIVE)
        .matcher(STRING_LITERAL.matcher(text).replaceAll("''"))
        .find();
  }
}
