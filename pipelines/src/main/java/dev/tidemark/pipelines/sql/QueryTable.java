package dev.tidemark.pipelines.sql;

import dev.tidemark.pipelines.io.ColumnKind;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import dev.tidemark.sql.ColumnType;
import dev.tidemark.sql.WindowedQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * A query's rows in a table: its {@code GROUP BY} columns and the window are the key, its {@code
 * SELECT} list the other columns, each of the type the query gives it. A column is named as the
 * query names it, in lower case ({@link TableColumn#ofField}); a {@code GROUP BY} column that the
 * {@code SELECT} list shows under its own name is one column.
 */
public final class QueryTable {

  private QueryTable() {}

  /** The table of {@code query}'s rows. */
  public static TableLayout of(WindowedQuery query) {
    return TableLayout.panes(
        columns(query.keyNames(), query.keyTypes()),
        columns(query.resultNames(), query.resultTypes()));
  }

  private static List<TableColumn> columns(List<String> names, List<ColumnType> types) {
    List<TableColumn> columns = new ArrayList<>();
    for (int c = 0; c < names.size(); c++) {
      columns.add(TableColumn.ofField(names.get(c), kindOf(types.get(c))));
    }
    return columns;
  }

  private static ColumnKind kindOf(ColumnType type) {
    return switch (type) {
      case BIGINT -> ColumnKind.BIGINT;
      case INTEGER, SMALLINT, TINYINT -> ColumnKind.INTEGER;
      case DOUBLE -> ColumnKind.DOUBLE;
      case FLOAT -> ColumnKind.REAL;
      case DECIMAL -> ColumnKind.DECIMAL;
      case VARCHAR -> ColumnKind.TEXT;
      case BOOLEAN -> ColumnKind.BOOLEAN;
      case TIMESTAMP -> ColumnKind.TIMESTAMP;
      case DATE -> ColumnKind.DATE;
    };
  }
}
