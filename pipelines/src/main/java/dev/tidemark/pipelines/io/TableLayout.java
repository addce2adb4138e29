package dev.tidemark.pipelines.io;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The table a table sink keeps for one output: its key columns, its other columns, and which rows
 * it holds ({@link Rows}). A pipeline gives its results' layout; late records and dead letters have
 * theirs here.
 *
 * @param rows what one row of the table is
 * @param key the columns of the table's primary key ({@link Rows#PANES}) or of its unique origin
 *     ({@link Rows#RECORDS})
 * @param values the other columns, in the order they are written
 */
public record TableLayout(Rows rows, List<TableColumn> key, List<TableColumn> values)
    implements Serializable {

  /** What one row of a table is. */
  public enum Rows {
    /**
     * One (group key, window) of the results: a pane replaces the row only if it is newer, a final
     * pane beating any other and a higher pane a lower one; a session that merged into another
     * deletes its row.
     */
    PANES,
    /**
     * One record, late or dead, keyed by where it came from ({@code origin}: {@code
     * topic-partition@offset}), so a replay writes it once; a record whose source does not say has
     * no origin and is added as it comes.
     */
    RECORDS
  }

  /** The column a record's origin goes in; its value is the line's record key. */
  public static final TableColumn ORIGIN = TableColumn.of("origin", ColumnKind.TEXT);

  /** The late records' table. */
  public static final TableLayout LATE =
      new TableLayout(
          Rows.RECORDS,
          List.of(ORIGIN),
          List.of(
              TableColumn.of("key", ColumnKind.TEXT),
              TableColumn.ofField("eventTime", ColumnKind.INSTANT),
              TableColumn.ofField("windowStart", ColumnKind.INSTANT),
              TableColumn.ofField("windowEnd", ColumnKind.INSTANT),
              TableColumn.of("watermark", ColumnKind.INSTANT),
              TableColumn.ofField("lateByMillis", ColumnKind.BIGINT),
              TableColumn.of("record", ColumnKind.TEXT)));

  /** The dead letters' table. */
  public static final TableLayout DEAD_LETTERS =
      new TableLayout(
          Rows.RECORDS,
          List.of(ORIGIN),
          List.of(
              TableColumn.of("reason", ColumnKind.TEXT),
              TableColumn.of("record", ColumnKind.TEXT)));

  private static final long serialVersionUID = 1L;

  public TableLayout {
    key = List.copyOf(key);
    values = List.copyOf(values);
  }

  /**
   * The results' table whose key is {@code key} and the window, and whose other columns are {@code
   * values} and the pane's {@code timing}, {@code pane} and {@code final}. The window's columns,
   * {@code window_start} and {@code window_end}, come from the fields {@code windowStart} and
   * {@code windowEnd} of the line or of its record key.
   */
  public static TableLayout panes(List<TableColumn> key, List<TableColumn> values) {
    List<TableColumn> keyAndWindow = new ArrayList<>(key);
    keyAndWindow.add(TableColumn.ofField("windowStart", ColumnKind.INSTANT));
    keyAndWindow.add(TableColumn.ofField("windowEnd", ColumnKind.INSTANT));
    List<TableColumn> valuesAndPane = new ArrayList<>();
    for (TableColumn value : values) {
      if (keyAndWindow.stream().noneMatch(column -> column.name().equals(value.name()))) {
        valuesAndPane.add(value);
      }
    }
    valuesAndPane.add(TableColumn.of("timing", ColumnKind.TEXT));
    valuesAndPane.add(TableColumn.of("pane", ColumnKind.BIGINT));
    valuesAndPane.add(TableColumn.of("final", ColumnKind.BOOLEAN));
    return new TableLayout(Rows.PANES, keyAndWindow, valuesAndPane);
  }

  /** Every column: the key's, then the others. */
  public List<TableColumn> columns() {
    List<TableColumn> all = new ArrayList<>(key);
    all.addAll(values);
    return all;
  }
}
