package dev.tidemark.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlCall;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlIdentifier;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlKind;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNodeList;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlSelect;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlWindow;

/**
 * The query that plans the rows a window Top-N ranks over a window table function ({@link
 * RankedQuery.Over#ROWS}), written over the user's own text: the ranking's {@code SELECT} list with
 * each expression the argument of a {@code FIRST_VALUE}, and {@code ROW_NUMBER() OVER (...)} as the
 * {@code FIRST_VALUE} of each of its {@code ORDER BY} expressions, over its {@code FROM} and {@code
 * WHERE} as written, grouped by the ranking's {@code PARTITION BY}. Calcite plans and compiles
 * every expression, and the pane engine carries each row's values; the calls' own values are never
 * used. The text changes only around the expressions ({@link WrittenQuery}), so an error in one
 * names its place in the user's query.
 *
 * <pre>{@code
 * SELECT * FROM (SELECT t, price * 2 AS p, window_end, ROW_NUMBER() OVER (PARTITION BY
 *   window_start, window_end, i ORDER BY price DESC) AS rownum FROM TABLE(...)) WHERE rownum <= 3
 * }</pre>
 *
 * <p>is planned as
 *
 * <pre>{@code
 * SELECT FIRST_VALUE(t) AS `value0`, FIRST_VALUE(price * 2) AS `value1`, window_end,
 *   FIRST_VALUE(price) FROM TABLE(...) GROUP BY window_start, window_end, i
 * }</pre>
 */
final class RankedRowsQuery {

  private static final List<String> WINDOW_COLUMNS =
      List.of("window_start", "window_end", "window_time");

  private final QueryText text;
  private final SqlTable table;
  private final List<WrittenQuery.Splice> splices = new ArrayList<>();
  private final List<RankedQuery.RowItem> items = new ArrayList<>();
  private final List<RankedQuery.SortItem> order = new ArrayList<>();
  private int resultColumns;

  private RankedRowsQuery(QueryText text, SqlTable table) {
    this.text = text;
    this.table = table;
  }

  /** What the ranking's rows are, and the query that plans them. */
  record Written(
      WrittenQuery query, List<RankedQuery.RowItem> items, List<RankedQuery.SortItem> order) {}

  /**
   * The rows that {@code ranking}'s {@code rowNumber} item ranks by {@code window}, in the query
   * {@code text}.
   */
  static Written of(
      QueryText text, SqlTable table, SqlSelect ranking, SqlCall rowNumber, SqlWindow window)
      throws InvalidQueryException {
    RankedRowsQuery query = new RankedRowsQuery(text, table);
    SqlNodeList selected = ranking.getSelectList();
    query.splices.add(new WrittenQuery.Splice(0, text.startOf(selected.get(0)), "SELECT "));
    for (int ordinal = 0; ordinal < selected.size(); ordinal++) {
      SqlNode item = selected.get(ordinal);
      if (item == rowNumber) {
        query.orderValues(rowNumber, window.getOrderList());
      } else {
        query.item(item, ordinal);
      }
    }
    StringBuilder groupBy = new StringBuilder(" GROUP BY ");
    SqlNodeList partition = window.getPartitionList();
    for (int p = 0; p < partition.size(); p++) {
      groupBy.append(p == 0 ? "" : ", ").append(text.of(partition.get(p)));
    }
    query.splices.add(
        new WrittenQuery.Splice(text.endOf(ranking), text.text().length(), groupBy.toString()));
    return new Written(
        WrittenQuery.spliced(text.text(), null, query.splices),
        List.copyOf(query.items),
        List.copyOf(query.order));
  }

  /** One item of the ranking's list, {@code ordinal} in it, as the columns it stands for. */
  private void item(SqlNode item, int ordinal) throws InvalidQueryException {
    if (item instanceof SqlIdentifier identifier && identifier.isStar()) {
      StringBuilder all = new StringBuilder();
      for (String column : table.queryColumns()) {
        all.append(all.length() == 0 ? "" : ", ").append(firstValue(quoted(column)));
        items.add(new RankedQuery.RowItem(column, null, resultColumns++));
      }
      for (String bound : WINDOW_COLUMNS) {
        all.append(", window_end");
        items.add(new RankedQuery.RowItem(bound, bound, resultColumns++));
      }
      splices.add(new WrittenQuery.Splice(text.startOf(item), text.endOf(item), all.toString()));
      return;
    }
    boolean aliased = item.getKind() == SqlKind.AS;
    SqlNode expression = aliased ? ((SqlCall) item).operand(0) : item;
    String name =
        aliased
            ? RankedQuery.name(((SqlCall) item).operand(1), "an alias")
            : expression instanceof SqlIdentifier identifier
                ? identifier.names.get(identifier.names.size() - 1)
                : "EXPR$" + ordinal;
    String bound =
        expression instanceof SqlIdentifier identifier
            ? identifier.names.get(identifier.names.size() - 1).toLowerCase(Locale.ROOT)
            : "";
    // Calcite places an AS call at its keyword: the item ends where its alias does.
    int end = text.endOf(aliased ? ((SqlCall) item).operand(1) : expression);
    if (WINDOW_COLUMNS.contains(bound)) {
      // A window's bound comes from its pane; the planned query names a bound it has.
      splices.add(new WrittenQuery.Splice(text.startOf(expression), end, "window_end"));
      items.add(new RankedQuery.RowItem(name, bound, resultColumns++));
      return;
    }
    int start = text.startOf(expression);
    splices.add(new WrittenQuery.Splice(start, start, "FIRST_VALUE("));
    splices.add(new WrittenQuery.Splice(text.endOf(expression), end, ")" + named(resultColumns)));
    items.add(new RankedQuery.RowItem(name, null, resultColumns++));
  }

  /** {@code ROW_NUMBER() OVER (...) AS rownum} as the {@code FIRST_VALUE} of each order. */
  private void orderValues(SqlCall rowNumber, SqlNodeList orderList) throws InvalidQueryException {
    if (orderList.isEmpty()) {
      throw WindowedQueryPlanner.refused(
          "ROW_NUMBER() OVER (...) takes an ORDER BY: it says which rows come first");
    }
    // From ROW_NUMBER to the alias: Calcite places the AS and OVER calls at their keywords.
    SqlCall over = rowNumber.operand(0);
    int at = text.startOf(over.operand(0));
    for (int o = 0; o < orderList.size(); o++) {
      SqlNode item = orderList.get(o);
      SqlNode expression = RankedQuery.unordered(item);
      String before = o == 0 ? "" : ")" + named(resultColumns - 1) + ", ";
      splices.add(new WrittenQuery.Splice(at, text.startOf(expression), before + "FIRST_VALUE("));
      at = text.endOf(expression);
      order.add(
          new RankedQuery.SortItem(
              text.of(expression),
              resultColumns++,
              RankedQuery.isDescending(item),
              RankedQuery.nullsFirst(item)));
    }
    splices.add(
        new WrittenQuery.Splice(
            at, text.endOf(rowNumber.operand(1)), ")" + named(resultColumns - 1)));
  }

  /** {@code FIRST_VALUE(expression)}, named as the next result column. */
  private String firstValue(String expression) {
    return "FIRST_VALUE(" + expression + ")" + named(resultColumns);
  }

  /**
   * The name of result column {@code column}: unnamed, a {@code FIRST_VALUE} call just before
   * {@code FROM} would read as the window function's {@code FIRST_VALUE(x) FROM FIRST}.
   */
  private static String named(int column) {
    return " AS `value" + column + "`";
  }

  private static String quoted(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
