package dev.tidemark.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlBasicCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlIdentifier;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlKind;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlLiteral;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNodeList;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlSelect;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlWindow;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParseException;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParser;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Window Top-N and window deduplication as Flink SQL 1.19 writes them, read from the query's parse
 * tree: the rows of each window ranked by {@code ROW_NUMBER() OVER (PARTITION BY window_start,
 * window_end [, columns] ORDER BY ...)}, and those whose rank is within a bound kept.
 *
 * <pre>{@code
 * SELECT * | columns FROM (
 *   SELECT * | columns, ROW_NUMBER() OVER (PARTITION BY window_start, window_end [, columns]
 *                                         ORDER BY expression [ASC | DESC] [, ...]) AS rownum
 *   FROM (window aggregate) | TABLE(TUMBLE | HOP | CUMULATE(...)) [WHERE condition])
 * WHERE rownum <= N | rownum < N | rownum = 1
 * }</pre>
 *
 * <p>Over a window aggregate ({@link Over#GROUPS}) the ranked rows are its result rows, and the
 * aggregate is planned as any query, written {@link QueryText#onlyOf alone in its place}. Over a
 * window table function ({@link Over#ROWS}) they are the table's rows: each selected and ordering
 * expression is then planned as the argument of a {@code FIRST_VALUE} grouped by the window and the
 * partition, so that Calcite plans and compiles every expression and the pane engine carries each
 * row's values; the pane engine keeps the top N rows, never the call's value.
 */
record RankedQuery(
    Over over,
    String plannedQuery,
    List<String> partition,
    List<SortItem> order,
    long limit,
    String rankName,
    @Nullable List<String> items,
    List<RowItem> rowItems,
    @Nullable List<String> outer,
    boolean orderedByEventTimeOnly) {

  /** What the ranked rows are. */
  enum Over {
    /** The result rows of a window aggregate. */
    GROUPS,
    /** The rows of a window table function. */
    ROWS
  }

  /**
   * One expression of {@code ORDER BY}: a column of the aggregate's result ({@link Over#GROUPS}),
   * or the place of its value among a row's ({@link Over#ROWS}).
   */
  record SortItem(
      String column, int valueIndex, boolean descending, @Nullable Boolean nullsFirst) {}

  /** One column of the ranked rows over a window table function: a window bound or a value. */
  record RowItem(String name, @Nullable String windowColumn, int valueIndex) {}

  private static final List<String> WINDOW_COLUMNS = List.of("window_start", "window_end");

  /**
   * The window Top-N or deduplication that {@code query} is, or null when it is none. A query that
   * is not Calcite's syntax is none, for the planner to say where its error is.
   *
   * @throws InvalidQueryException when it ranks the rows of windows in a way {@code sql} does not
   *     take, naming the construct
   */
  static @Nullable RankedQuery of(String query, SqlTable table) throws InvalidQueryException {
    SqlNode parsed;
    try {
      parsed = SqlParser.create(query, FlinkSyntax.parserConfig()).parseQuery();
    } catch (SqlParseException e) {
      return null;
    }
    if (!(parsed instanceof SqlSelect outer)
        || !(unaliased(outer.getFrom()) instanceof SqlSelect)) {
      return null;
    }
    SqlSelect ranking = (SqlSelect) unaliased(outer.getFrom());
    SqlCall rowNumber = rowNumberItem(ranking);
    if (rowNumber == null) {
      return null;
    }
    return new Reading(new QueryText(query), table).read(outer, ranking, rowNumber);
  }

  /** The {@code ROW_NUMBER() OVER (...) AS name} item of {@code select}'s list, or null. */
  private static @Nullable SqlCall rowNumberItem(SqlSelect select) {
    for (SqlNode item : select.getSelectList()) {
      if (item.getKind() == SqlKind.AS
          && ((SqlCall) item).operand(0) instanceof SqlCall over
          && over.getKind() == SqlKind.OVER
          && over.operand(0) instanceof SqlCall function
          && function.getOperator().getName().equalsIgnoreCase("ROW_NUMBER")) {
        return (SqlCall) item;
      }
    }
    return null;
  }

  private static @Nullable SqlNode unaliased(@Nullable SqlNode node) {
    return node != null && node.getKind() == SqlKind.AS ? ((SqlCall) node).operand(0) : node;
  }

  /** The reading of one query's parse tree. */
  private static final class Reading {
    private final QueryText text;
    private final SqlTable table;
    private final List<String> values = new ArrayList<>();

    Reading(QueryText text, SqlTable table) {
      this.text = text;
      this.table = table;
    }

    RankedQuery read(SqlSelect outer, SqlSelect ranking, SqlCall rowNumber)
        throws InvalidQueryException {
      String rankName = name(rowNumber.operand(1), "ROW_NUMBER()'s alias");
      SqlNode windowSpec = ((SqlCall) rowNumber.operand(0)).operand(1);
      if (!(windowSpec instanceof SqlWindow window)) {
        throw refused("ROW_NUMBER() OVER a named window is not supported");
      }
      if (window.getLowerBound() != null || window.getUpperBound() != null) {
        throw refused("ROW_NUMBER() OVER a frame (ROWS or RANGE) is not supported");
      }
      if (outer.getGroup() != null || outer.getHaving() != null || outer.getOrderList() != null) {
        throw refused("a window Top-N's outer query takes only SELECT and WHERE rownum <= N");
      }
      if (ranking.getGroup() != null || ranking.getHaving() != null) {
        throw refused("GROUP BY beside ROW_NUMBER() OVER is not supported: rank a subquery's rows");
      }
      long limit = limit(outer.getWhere(), rankName);
      List<String> partition = partition(window.getPartitionList());
      SqlNode from = unaliased(ranking.getFrom());
      Over over;
      String planned;
      List<RowItem> rowItems = new ArrayList<>();
      List<SortItem> order;
      if (from instanceof SqlSelect aggregate) {
        if (ranking.getWhere() != null) {
          throw refused(
              "a WHERE between a window aggregate and ROW_NUMBER() is not supported; filter the"
                  + " aggregate's rows with its HAVING");
        }
        over = Over.GROUPS;
        planned = text.onlyOf(aggregate);
        order = groupOrder(window.getOrderList());
      } else if (from != null && from.getKind() == SqlKind.COLLECTION_TABLE) {
        over = Over.ROWS;
        SqlNodeList selected = ranking.getSelectList();
        for (int ordinal = 0; ordinal < selected.size(); ordinal++) {
          if (selected.get(ordinal) != rowNumber) {
            rowItems.addAll(rowItems(selected.get(ordinal), ordinal));
          }
        }
        order = rowOrder(window.getOrderList());
        planned = rowsQuery(ranking, window.getPartitionList());
      } else {
        throw refused(
            "ROW_NUMBER() OVER ranks the rows of a window aggregate or of a window table function"
                + " (TUMBLE, HOP, CUMULATE); these are neither");
      }
      if (order.isEmpty()) {
        throw refused("ROW_NUMBER() OVER (...) takes an ORDER BY: it says which rows come first");
      }
      boolean byEventTimeOnly =
          over == Over.ROWS
              && window.getOrderList().size() == 1
              && isEventTime(unordered(window.getOrderList().get(0)));
      return new RankedQuery(
          over,
          planned,
          partition,
          order,
          limit,
          rankName,
          over == Over.GROUPS ? columnNames(ranking.getSelectList(), rowNumber) : null,
          rowItems,
          columnNames(outer.getSelectList(), null),
          byEventTimeOnly);
    }

    /** N, from {@code rownum <= N}, {@code rownum < N + 1} or {@code rownum = 1}. */
    private static long limit(@Nullable SqlNode where, String rankName)
        throws InvalidQueryException {
      String expected = "a window Top-N's outer WHERE is " + rankName + " <= N";
      if (!(where instanceof SqlBasicCall condition)
          || condition.operandCount() != 2
          || !(condition.operand(1) instanceof SqlLiteral bound)
          || !(condition.operand(0) instanceof SqlIdentifier rank)
          || !rank.getSimple().equals(rankName)) {
        throw refused(expected + "; " + (where == null ? "it has none" : where + " is not"));
      }
      long value = bound.longValue(true);
      long limit =
          switch (condition.getKind()) {
            case LESS_THAN_OR_EQUAL -> value;
            case LESS_THAN -> value - 1;
            case EQUALS -> value == 1 ? 1 : -1;
            default -> -1;
          };
      if (limit < 1) {
        throw refused(expected + "; " + where + " is not");
      }
      return limit;
    }

    /**
     * The partition's columns besides {@code window_start} and {@code window_end}, which it needs.
     */
    private static List<String> partition(SqlNodeList partitionList) throws InvalidQueryException {
      List<String> names = new ArrayList<>();
      for (SqlNode column : partitionList) {
        names.add(name(column, "ROW_NUMBER()'s PARTITION BY"));
      }
      List<String> lowerCase = names.stream().map(name -> name.toLowerCase(Locale.ROOT)).toList();
      if (!lowerCase.containsAll(WINDOW_COLUMNS)) {
        throw refused(
            "ROW_NUMBER() OVER (PARTITION BY ...) must name window_start and window_end: a"
                + " window's rows are ranked when the window closes");
      }
      return names.stream()
          .filter(name -> !WINDOW_COLUMNS.contains(name.toLowerCase(Locale.ROOT)))
          .toList();
    }

    private static List<SortItem> groupOrder(SqlNodeList orderList) throws InvalidQueryException {
      List<SortItem> order = new ArrayList<>();
      for (SqlNode item : orderList) {
        order.add(
            new SortItem(
                name(unordered(item), "ORDER BY over a window aggregate"),
                -1,
                isDescending(item),
                nullsFirst(item)));
      }
      return order;
    }

    private List<SortItem> rowOrder(SqlNodeList orderList) {
      List<SortItem> order = new ArrayList<>();
      for (SqlNode item : orderList) {
        SqlNode expression = unordered(item);
        order.add(
            new SortItem(
                text.of(expression), value(expression), isDescending(item), nullsFirst(item)));
      }
      return order;
    }

    /**
     * The ranked rows' columns that {@code item}, at {@code ordinal} in the ranking's list, stands
     * for; unnamed, an expression is {@code EXPR$ordinal}, as Flink SQL names it.
     */
    private List<RowItem> rowItems(SqlNode item, int ordinal) throws InvalidQueryException {
      if (item instanceof SqlIdentifier identifier && identifier.isStar()) {
        List<RowItem> all = new ArrayList<>();
        for (String column : table.queryColumns()) {
          all.add(new RowItem(column, null, value(quoted(column))));
        }
        for (String bound : List.of("window_start", "window_end", "window_time")) {
          all.add(new RowItem(bound, bound, -1));
        }
        return all;
      }
      SqlNode expression = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
      String name =
          item.getKind() == SqlKind.AS
              ? name(((SqlCall) item).operand(1), "an alias")
              : expression instanceof SqlIdentifier identifier
                  ? identifier.names.get(identifier.names.size() - 1)
                  : "EXPR$" + ordinal;
      if (expression instanceof SqlIdentifier identifier) {
        String column = identifier.names.get(identifier.names.size() - 1);
        String lowerCase = column.toLowerCase(Locale.ROOT);
        if (List.of("window_start", "window_end", "window_time").contains(lowerCase)) {
          return List.of(new RowItem(name, lowerCase, -1));
        }
      }
      return List.of(new RowItem(name, null, value(expression)));
    }

    private int value(SqlNode expression) {
      return value(text.of(expression));
    }

    /** The place among a row's values of {@code expression}'s, added when it is new. */
    private int value(String expression) {
      int known = values.indexOf(expression);
      if (known >= 0) {
        return known;
      }
      values.add(expression);
      return values.size() - 1;
    }

    /**
     * The query that plans the ranked rows' values: each as a {@code FIRST_VALUE}, grouped by the
     * window and the partition, over the ranking's {@code FROM} and {@code WHERE} as written.
     */
    private String rowsQuery(SqlSelect ranking, SqlNodeList partitionList) {
      StringBuilder query = new StringBuilder("SELECT ");
      for (int v = 0; v < values.size(); v++) {
        query
            .append(v == 0 ? "" : ", ")
            .append("FIRST_VALUE(")
            .append(values.get(v))
            .append(") AS `value")
            .append(v)
            .append('`');
      }
      query.append(" FROM ").append(text.of(ranking.getFrom()));
      if (ranking.getWhere() != null) {
        query.append(" WHERE ").append(text.of(ranking.getWhere()));
      }
      query.append(" GROUP BY ");
      for (int p = 0; p < partitionList.size(); p++) {
        query.append(p == 0 ? "" : ", ").append(text.of(partitionList.get(p)));
      }
      return query.toString();
    }

    private boolean isEventTime(SqlNode expression) {
      return expression instanceof SqlIdentifier identifier
          && identifier.names.get(identifier.names.size() - 1).equals(table.rowtime());
    }

    /** The names of a select list's columns, or null for {@code *}; {@code skipped} left out. */
    private static @Nullable List<String> columnNames(SqlNodeList list, @Nullable SqlNode skipped)
        throws InvalidQueryException {
      List<String> names = new ArrayList<>();
      for (SqlNode item : list) {
        if (item == skipped) {
          continue;
        }
        if (item instanceof SqlIdentifier identifier && identifier.isStar()) {
          if (list.size() != (skipped == null ? 1 : 2)) {
            throw refused("a window Top-N's * with other columns is not supported");
          }
          return null;
        }
        names.add(name(item, "a window Top-N's SELECT list, over the rows it ranks,"));
      }
      return names;
    }

    private static SqlNode unordered(SqlNode item) {
      SqlNode node = item;
      while (node.getKind() == SqlKind.DESCENDING
          || node.getKind() == SqlKind.NULLS_FIRST
          || node.getKind() == SqlKind.NULLS_LAST) {
        node = ((SqlCall) node).operand(0);
      }
      return node;
    }

    private static boolean isDescending(SqlNode item) {
      SqlNode node = item;
      while (node instanceof SqlCall call
          && (node.getKind() == SqlKind.NULLS_FIRST || node.getKind() == SqlKind.NULLS_LAST)) {
        node = call.operand(0);
      }
      return node.getKind() == SqlKind.DESCENDING;
    }

    private static @Nullable Boolean nullsFirst(SqlNode item) {
      return switch (item.getKind()) {
        case NULLS_FIRST -> true;
        case NULLS_LAST -> false;
        default -> null;
      };
    }

    private static String quoted(String name) {
      return "`" + name.replace("`", "``") + "`";
    }

    /** The name {@code node} is, a column or an alias. */
    private static String name(SqlNode node, String where) throws InvalidQueryException {
      if (!(node instanceof SqlIdentifier identifier) || identifier.isStar()) {
        throw refused(where + " takes columns by name; " + node + " is not one");
      }
      return identifier.names.get(identifier.names.size() - 1);
    }

    private static InvalidQueryException refused(String what) {
      return WindowedQueryPlanner.refused(what);
    }
  }
}
