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
 * WHERE rownum <= N | rownum < N | rownum = 1 [AND conditions on the ranked rows' columns]
 * }</pre>
 *
 * <p>Over a window aggregate ({@link Over#GROUPS}) the ranked rows are its result rows, and the
 * aggregate is planned as any query, written {@link QueryText#onlyOf alone in its place}. Over a
 * window table function ({@link Over#ROWS}) they are the table's rows, whose values {@link
 * RankedRowsQuery} plans. Either way, an error names its place in the user's query.
 */
record RankedQuery(
    Over over,
    WrittenQuery planned,
    List<String> partition,
    List<SortItem> order,
    long limit,
    String rankName,
    @Nullable List<String> items,
    List<RowItem> rowItems,
    @Nullable List<String> outer,
    boolean orderedByEventTimeOnly,
    @Nullable WrittenQuery kept) {

  /**
   * The table a condition of the outer {@code WHERE} beside the rank's bound reads: the ranked
   * rows, the rank among their columns ({@link #kept}).
   */
  static final String RANKED_ROWS = "tidemark_ranked_rows";

  /** What the ranked rows are. */
  enum Over {
    /** The result rows of a window aggregate. */
    GROUPS,
    /** The rows of a window table function. */
    ROWS
  }

  /**
   * One expression of {@code ORDER BY}: a column of the aggregate's result ({@link Over#GROUPS}),
   * or, over a table's rows, the result column of the query that plans them that has its value.
   */
  record SortItem(
      String column, int resultColumn, boolean descending, @Nullable Boolean nullsFirst) {}

  /**
   * One column of the ranked rows over a window table function: a window bound ({@code
   * window_start}, {@code window_end} or {@code window_time}), or the value of the query's result
   * column {@code resultColumn}.
   */
  record RowItem(String name, @Nullable String windowColumn, int resultColumn) {}

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

  /** An {@code ORDER BY} item without its direction and {@code NULLS} order. */
  static SqlNode unordered(SqlNode item) {
    SqlNode node = item;
    while (node.getKind() == SqlKind.DESCENDING
        || node.getKind() == SqlKind.NULLS_FIRST
        || node.getKind() == SqlKind.NULLS_LAST) {
      node = ((SqlCall) node).operand(0);
    }
    return node;
  }

  /** Whether an {@code ORDER BY} item is {@code DESC}. */
  static boolean isDescending(SqlNode item) {
    SqlNode node = item;
    while (node instanceof SqlCall call
        && (node.getKind() == SqlKind.NULLS_FIRST || node.getKind() == SqlKind.NULLS_LAST)) {
      node = call.operand(0);
    }
    return node.getKind() == SqlKind.DESCENDING;
  }

  /** Whether an {@code ORDER BY} item says {@code NULLS FIRST}; null when it says neither. */
  static @Nullable Boolean nullsFirst(SqlNode item) {
    return switch (item.getKind()) {
      case NULLS_FIRST -> true;
      case NULLS_LAST -> false;
      default -> null;
    };
  }

  /** The name {@code node} is, a column or an alias. */
  static String name(SqlNode node, String where) throws InvalidQueryException {
    if (!(node instanceof SqlIdentifier identifier) || identifier.isStar()) {
      throw WindowedQueryPlanner.refused(where + " takes columns by name; " + node + " is not one");
    }
    return identifier.names.get(identifier.names.size() - 1);
  }

  /** The reading of one query's parse tree. */
  private static final class Reading {
    private final QueryText text;
    private final SqlTable table;

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
      List<SqlNode> conjuncts = new ArrayList<>();
      conjunctsOf(outer.getWhere(), conjuncts);
      SqlNode bound = boundAmong(conjuncts, rankName);
      long limit = limit(bound, rankName);
      WrittenQuery kept = kept(conjuncts, bound);
      List<String> partition = partition(window.getPartitionList());
      SqlNode from = unaliased(ranking.getFrom());
      Over over;
      WrittenQuery planned;
      List<RowItem> rowItems = List.of();
      List<SortItem> order;
      if (from instanceof SqlSelect aggregate) {
        if (ranking.getWhere() != null) {
          throw refused(
              "a WHERE between a window aggregate and ROW_NUMBER() is not supported; filter the"
                  + " aggregate's rows with its HAVING");
        }
        over = Over.GROUPS;
        planned = WrittenQuery.asTyped(text.onlyOf(aggregate));
        order = groupOrder(window.getOrderList());
      } else if (from != null && from.getKind() == SqlKind.COLLECTION_TABLE) {
        over = Over.ROWS;
        RankedRowsQuery.Written rows = RankedRowsQuery.of(text, table, ranking, rowNumber, window);
        planned = rows.query();
        rowItems = rows.items();
        order = rows.order();
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
          byEventTimeOnly,
          kept);
    }

    /** The operands of {@code where}'s ANDs, in the order written; {@code where} if it has none. */
    private static void conjunctsOf(@Nullable SqlNode where, List<SqlNode> conjuncts) {
      if (where != null && where.getKind() == SqlKind.AND) {
        for (SqlNode operand : ((SqlCall) where).getOperandList()) {
          conjunctsOf(operand, conjuncts);
        }
      } else if (where != null) {
        conjuncts.add(where);
      }
    }

    /** The conjunct that bounds the rank, {@code rownum <= N}: the only one that names it alone. */
    private static @Nullable SqlNode boundAmong(List<SqlNode> conjuncts, String rankName) {
      for (SqlNode conjunct : conjuncts) {
        if (conjunct instanceof SqlBasicCall condition
            && condition.operandCount() == 2
            && condition.operand(0) instanceof SqlIdentifier rank
            && rank.getSimple().equals(rankName)
            && condition.operand(1) instanceof SqlLiteral) {
          return conjunct;
        }
      }
      return conjuncts.size() == 1 ? conjuncts.get(0) : null;
    }

    /**
     * The conditions beside the rank's {@code bound}, as a query over the ranked rows ({@link
     * #RANKED_ROWS}) at their place in the user's query; null when there are none. Flink SQL keeps
     * the rows of the top N that meet them, their ranks as they were.
     */
    private @Nullable WrittenQuery kept(List<SqlNode> conjuncts, SqlNode bound)
        throws InvalidQueryException {
      List<SqlNode> others = new ArrayList<>(conjuncts);
      others.remove(bound);
      if (others.isEmpty()) {
        return null;
      }
      if (conjuncts.get(0) != bound && conjuncts.get(conjuncts.size() - 1) != bound) {
        throw refused(
            "the outer WHERE's bound of the rank comes first or last among its ANDs, not between"
                + " other conditions");
      }
      String blanked = text.onlyOf(others.get(0), others.get(others.size() - 1));
      return WrittenQuery.spliced(
          blanked,
          null,
          List.of(new WrittenQuery.Splice(0, 0, "SELECT * FROM " + RANKED_ROWS + " WHERE ")));
    }

    /** N, from {@code rownum <= N}, {@code rownum < N + 1} or {@code rownum = 1}. */
    private static long limit(@Nullable SqlNode where, String rankName)
        throws InvalidQueryException {
      String expected = "a window Top-N's outer WHERE has " + rankName + " <= N";
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

    private static InvalidQueryException refused(String what) {
      return WindowedQueryPlanner.refused(what);
    }
  }
}
