package dev.tidemark.sql;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.beam.sdk.extensions.sql.impl.parser.BeamSqlParser;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.avatica.util.Casing;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.avatica.util.Quoting;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlBasicCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlIdentifier;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlKind;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNodeList;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlSelect;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParseException;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParser;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.util.SqlBasicVisitor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink SQL 1.19's windows and time functions that Beam SQL's planner does not plan, written as
 * ones it does, before it plans the query:
 *
 * <ul>
 *   <li>{@code FROM_UNIXTIME(seconds [, format])} and {@code UNIX_TIMESTAMP(text [, format])},
 *       whose text is in the session's time zone: the format, by default {@code yyyy-MM-dd
 *       HH:mm:ss}, and the zone are written as their last arguments ({@link FlinkTimeFunctions}).
 *   <li>{@code TABLE(CUMULATE(TABLE t, DESCRIPTOR(rowtime), step, size))}: Calcite has no {@code
 *       CUMULATE}; it is planned as {@code HOP(..., step, size)}, whose slide is the step.
 *   <li>{@code TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(rowtime), gap))}: Beam's planner
 *       takes no session table function; it is planned as {@code TUMBLE(TABLE t,
 *       DESCRIPTOR(rowtime), gap)}. Flink keeps sessions per {@code PARTITION BY} key and tidemark
 *       per group, so the two must name the same columns.
 *   <li>{@code GROUP BY SESSION(rowtime, gap)} with {@code SESSION_START} and {@code SESSION_END}:
 *       Beam plans {@code SESSION_END} as the window's start, so the query is written in the table
 *       function's form, grouped by {@code window_start} and {@code window_end}.
 * </ul>
 *
 * <p>Only the planner's window columns come from the written query: which windows they stand for is
 * {@link WrittenQuery#windowFunction()}'s, and the pane engine fills them per window. The text
 * changes only where these calls are, and the place of an error in the written query is mapped back
 * to the user's ({@link WrittenQuery#placeInQuery}). The rest of the text is the user's, byte for
 * byte: the parser is Calcite's, the splicing by the places it gives is written here.
 */
final class FlinkSyntax {

  private final String query;
  private final QueryText text;
  private final List<WrittenQuery.Splice> splices = new ArrayList<>();
  private @Nullable String windowFunction;

  private FlinkSyntax(String query) {
    this.query = query;
    this.text = new QueryText(query);
  }

  /**
   * {@code query} as Beam SQL's planner takes it. A query Calcite's parser cannot read is returned
   * as it is, for the planner to say where its syntax error is.
   */
  static WrittenQuery of(String query, ZoneId zone) throws InvalidQueryException {
    SqlNode parsed;
    try {
      parsed = SqlParser.create(query, parserConfig()).parseQuery();
    } catch (SqlParseException e) {
      return WrittenQuery.asTyped(query);
    }
    Refusals.refuseOverWindows(parsed);
    FlinkSyntax syntax = new FlinkSyntax(query);
    for (SqlSelect select : selects(parsed)) {
      syntax.rewrite(select);
    }
    syntax.zonedTimeFunctions(parsed, zone);
    return syntax.written();
  }

  /**
   * Writes the format and the zone as the last arguments of each {@code FROM_UNIXTIME} and {@code
   * UNIX_TIMESTAMP} of text, the zone as SQL's string literal.
   */
  private void zonedTimeFunctions(SqlNode parsed, ZoneId zone) {
    eachCall(
        parsed,
        call -> {
          String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
          int arguments = call.operandCount();
          if ((name.equals("FROM_UNIXTIME") || name.equals("UNIX_TIMESTAMP"))
              && arguments >= 1
              && arguments <= 2) {
            int end = text.endOf(call.operand(arguments - 1));
            String format = arguments == 1 ? ", '" + FlinkTimeFunctions.DEFAULT_FORMAT + "'" : "";
            splices.add(new WrittenQuery.Splice(end, end, format + ", '" + zone.getId() + "'"));
          }
          return true;
        });
  }

  /** Beam SQL's reading of a query: back-quoted names, kept as written. */
  static SqlParser.Config parserConfig() {
    return SqlParser.config()
        .withParserFactory(BeamSqlParser.FACTORY)
        .withQuoting(Quoting.BACK_TICK)
        .withUnquotedCasing(Casing.UNCHANGED)
        .withQuotedCasing(Casing.UNCHANGED)
        .withCaseSensitive(true);
  }

  private void rewrite(SqlSelect select) throws InvalidQueryException {
    SqlNode from = select.getFrom();
    SqlNode table = from != null && from.getKind() == SqlKind.AS ? operand(from, 0) : from;
    if (table != null && table.getKind() == SqlKind.COLLECTION_TABLE) {
      SqlNode function = operand(table, 0);
      if (function instanceof SqlBasicCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (name.equals("CUMULATE")) {
          found("CUMULATE");
          renameFunction(call, "HOP");
        } else if (name.equals("SESSION")) {
          found("SESSION");
          renameFunction(call, "TUMBLE");
          sessionPartition(call, select);
        }
      }
    }
    SqlNodeList group = select.getGroup();
    if (group != null) {
      for (SqlNode item : group) {
        if (item != null && item.getKind() == SqlKind.SESSION) {
          found("SESSION");
          groupWindowAsTableFunction(select, table, (SqlCall) item);
        }
      }
    }
  }

  private void found(String function) throws InvalidQueryException {
    if (windowFunction != null) {
      throw WindowedQueryPlanner.refused("more than one window in a query is not supported");
    }
    windowFunction = function;
  }

  /**
   * Writes {@code call}'s name as {@code name}, padded to its length, so nothing after it moves.
   */
  private void renameFunction(SqlCall call, String name) {
    int start = text.startOf(call);
    int nameLength = call.getOperator().getName().length();
    splices.add(new WrittenQuery.Splice(start, start + nameLength, padded(name, nameLength)));
  }

  /**
   * Drops {@code PARTITION BY} from the session table function's table, after checking that it
   * names the columns the query groups by: tidemark keeps sessions per group.
   */
  private void sessionPartition(SqlBasicCall session, SqlSelect select)
      throws InvalidQueryException {
    SqlNode argument = session.operand(0);
    Set<String> partition = new LinkedHashSet<>();
    if (argument.getKind() == SqlKind.SET_SEMANTICS_TABLE) {
      SqlCall semantics = (SqlCall) argument;
      SqlNode order = semantics.operand(2);
      if (order instanceof SqlNodeList list && !list.isEmpty()) {
        throw WindowedQueryPlanner.refused("SESSION's ORDER BY is not supported");
      }
      for (SqlNode column : (SqlNodeList) semantics.operand(1)) {
        partition.add(simpleName(column, "SESSION's PARTITION BY"));
      }
      splices.add(
          new WrittenQuery.Splice(
              text.startOf(argument),
              text.endOf(argument),
              text.of(argument, semantics.operand(0))));
    }
    Set<String> grouped = new LinkedHashSet<>();
    SqlNodeList group = select.getGroup();
    for (SqlNode item : group == null ? SqlNodeList.EMPTY : group) {
      String name = simpleName(item, "a SESSION window's GROUP BY");
      if (!name.equalsIgnoreCase("window_start") && !name.equalsIgnoreCase("window_end")) {
        grouped.add(name);
      }
    }
    if (!grouped.equals(partition)) {
      throw WindowedQueryPlanner.refused(
          "SESSION(TABLE t PARTITION BY ...) must partition by the columns the query groups by"
              + " besides window_start and window_end ("
              + (grouped.isEmpty() ? "none" : String.join(", ", grouped))
              + "): sessions are kept per group");
    }
  }

  /**
   * {@code GROUP BY SESSION(rowtime, gap)} as the session table function over the query's table,
   * grouped by its window columns, with {@code SESSION_START} and {@code SESSION_END} as those.
   */
  private void groupWindowAsTableFunction(SqlSelect select, @Nullable SqlNode table, SqlCall window)
      throws InvalidQueryException {
    if (!(table instanceof SqlIdentifier name)) {
      throw WindowedQueryPlanner.refused(
          "GROUP BY SESSION(...) reads one table; over a subquery or a join it is not supported");
    }
    if (window.operandCount() != 2) {
      throw WindowedQueryPlanner.refused("SESSION with a start or offset is not supported");
    }
    String time = quoted(simpleName(window.operand(0), "SESSION's time column"));
    String tableText = text.of(name);
    String alias =
        select.getFrom() == name ? " AS " + quoted(name.names.get(name.names.size() - 1)) : "";
    splices.add(
        new WrittenQuery.Splice(
            text.startOf(name),
            text.endOf(name),
            "TABLE(TUMBLE(TABLE "
                + tableText
                + ", DESCRIPTOR("
                + time
                + "), "
                + text.of(window.operand(1))
                + "))"
                + alias));
    splices.add(
        new WrittenQuery.Splice(
            text.startOf(window), text.endOf(window), "window_start, window_end"));
    SqlNodeList items = select.getSelectList();
    for (int ordinal = 0; ordinal < items.size(); ordinal++) {
      SqlNode item = items.get(ordinal);
      if (isSessionBound(item)) {
        // Unnamed, Calcite names a column EXPR$ and its place; the window column has a name.
        windowColumn((SqlCall) item, " AS `EXPR$" + ordinal + "`");
      } else {
        sessionBoundsIn(item);
      }
    }
    sessionBoundsIn(select.getHaving());
  }

  private void sessionBoundsIn(@Nullable SqlNode node) {
    eachCall(
        node,
        call -> {
          if (isSessionBound(call)) {
            windowColumn(call, "");
            return false;
          }
          return true;
        });
  }

  private static boolean isSessionBound(SqlNode node) {
    if (!(node instanceof SqlCall call)) {
      return false;
    }
    String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
    return name.equals("SESSION_START") || name.equals("SESSION_END");
  }

  private void windowColumn(SqlCall bound, String alias) {
    boolean start = bound.getOperator().getName().equalsIgnoreCase("SESSION_START");
    splices.add(
        new WrittenQuery.Splice(
            text.startOf(bound),
            text.endOf(bound),
            (start ? "window_start" : "window_end") + alias));
  }

  private WrittenQuery written() {
    return WrittenQuery.spliced(query, windowFunction, splices);
  }

  private static String simpleName(SqlNode node, String where) throws InvalidQueryException {
    if (!(node instanceof SqlIdentifier identifier) || identifier.isStar()) {
      throw WindowedQueryPlanner.refused(where + " takes columns; " + node + " is not one");
    }
    return identifier.names.get(identifier.names.size() - 1);
  }

  private static String quoted(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  private static String padded(String text, int length) {
    return text + " ".repeat(Math.max(0, length - text.length()));
  }

  private static @Nullable SqlNode operand(SqlNode call, int index) {
    return ((SqlCall) call).getOperandList().get(index);
  }

  /** Every {@code SELECT} of {@code parsed}, subqueries too. */
  private static List<SqlSelect> selects(SqlNode parsed) {
    List<SqlSelect> selects = new ArrayList<>();
    eachCall(
        parsed,
        call -> {
          if (call instanceof SqlSelect select) {
            selects.add(select);
          }
          return true;
        });
    return selects;
  }

  /**
   * Shows {@code visit} every call in {@code node}, outer calls first; it says whether to look
   * inside the call it is shown.
   */
  private static void eachCall(@Nullable SqlNode node, Predicate<SqlCall> visit) {
    if (node == null) {
      return;
    }
    node.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            if (visit.test(call)) {
              for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                  operand.accept(this);
                }
              }
            }
            return null;
          }

          @Override
          public Void visit(SqlNodeList list) {
            for (SqlNode item : list) {
              if (item != null) {
                item.accept(this);
              }
            }
            return null;
          }
        });
  }
}
