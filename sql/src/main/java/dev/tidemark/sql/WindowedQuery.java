package dev.tidemark.sql;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * A windowed SQL query, planned, in the parts tidemark's pane engine runs: what each record's row
 * becomes before the grouping (its key and its aggregates' arguments, or nothing when {@code WHERE}
 * filters it out), the tumbling window, the aggregates as one {@code CombineFn}, and what each pane
 * becomes after the grouping (the {@code SELECT} list, or nothing when {@code HAVING} filters it
 * out). Made by {@link #plan}; every part is serializable, so a worker runs the same query.
 *
 * <h2>A row filtered out</h2>
 *
 * <p>A record that {@code WHERE} filters out is still an event, under a key of its own that no row
 * of the query has ({@link #isFiltered}), so that it is judged late or on time like every record,
 * and a pipeline can account for it, but it is in no result, and its late copy is no late row. It
 * is counted once, in {@code tidemark:filteredRecords}, as it is read; {@link LateRows} takes a
 * late one back from the pane step's late count.
 *
 * <h2>A window Top-N</h2>
 *
 * <p>A window Top-N or deduplication ({@link RankedQuery}) is the query of the rows it ranks with a
 * {@link WindowRanking}: its panes are the partition's, its aggregate gives what the ranking needs
 * (every group's aggregates, or the top N rows), and each pane has up to N result rows. Over a
 * session aggregate each group has sessions of its own, so its panes are the groups', and {@link
 * SessionRanking} makes the partition's of them ({@link #ranksSessions}).
 */
public final class WindowedQuery implements Serializable {

  private static final long serialVersionUID = 1L;

  private final SqlTable table;
  private final List<RowStep> steps;
  private final EventTimeWindowing windows;
  private final int[] keyColumns;
  private final List<ColumnType> keyTypes;
  private final List<String> keyNames;
  private final int[] argumentColumns;
  private final List<GroupColumn> groupColumns;
  private final List<Aggregation> aggregations;
  private final EventArguments eventArguments;
  private final @Nullable RowExpressions select;
  private final List<String> resultNames;
  private final List<ColumnType> resultTypes;
  private final int[] resultGroupedColumns;
  private final @Nullable WindowRanking ranking;
  private final RowEvents events;

  /**
   * One result row of a pane: its values, in the order of {@link #resultNames()}, its key's, in the
   * order of {@link #keyNames()}, and its own pane: the pane's, but for a row of a ranking of
   * sessions, whose window is its own session's.
   */
  public record ResultRow(Object[] values, List<@Nullable Object> keyValues, WindowPane pane) {}

  WindowedQuery(
      SqlTable table,
      List<RowStep> steps,
      EventTimeWindowing windows,
      int[] keyColumns,
      List<ColumnType> keyTypes,
      List<String> keyNames,
      int[] argumentColumns,
      List<GroupColumn> groupColumns,
      List<Aggregation> aggregations,
      @Nullable RowExpressions select,
      List<String> resultNames,
      List<ColumnType> resultTypes,
      int[] resultGroupedColumns,
      @Nullable WindowRanking ranking) {
    this.table = table;
    this.steps = List.copyOf(steps);
    this.windows = windows;
    this.keyColumns = keyColumns.clone();
    this.keyTypes = List.copyOf(keyTypes);
    this.keyNames = List.copyOf(keyNames);
    this.argumentColumns = argumentColumns.clone();
    this.groupColumns = List.copyOf(groupColumns);
    this.aggregations = List.copyOf(aggregations);
    // A ranking reads the calls' arguments where the query wrote them.
    this.eventArguments =
        ranking == null
            ? EventArguments.of(argumentColumns, aggregations, keyColumns)
            : EventArguments.asWritten(argumentColumns, aggregations);
    this.select = select;
    this.resultNames = List.copyOf(resultNames);
    this.resultTypes = List.copyOf(resultTypes);
    this.resultGroupedColumns = resultGroupedColumns.clone();
    this.ranking = ranking;
    // A window Top-N's pane is the partition's, and each event carries its group's key first;
    // over sessions a group's pane is its own, and SessionRanking gathers the partition's.
    boolean partitioned = ranking != null && ranking.overGroups() && !ranksSessions();
    this.events =
        new RowEvents(
            steps, keyColumns, keyTypes, eventArguments.columns(), partitioned ? ranking : null);
  }

  /**
   * Plans {@code query} over {@code table} with Beam SQL's planner.
   *
   * @throws InvalidQueryException for a syntax error, an unknown column, or a query that is not a
   *     tumbling-window aggregation ({@link WindowedQueryPlanner} lists what {@code sql} takes)
   */
  public static WindowedQuery plan(SqlTable table, String query) throws InvalidQueryException {
    return WindowedQueryPlanner.plan(table, query);
  }

  /** The same query, its groups' rows or its table's ranked by {@code ranking}. */
  WindowedQuery withRanking(WindowRanking ranking) {
    return new WindowedQuery(
        table,
        steps,
        windows,
        keyColumns,
        keyTypes,
        keyNames,
        argumentColumns,
        groupColumns,
        aggregations,
        select,
        resultNames,
        resultTypes,
        resultGroupedColumns,
        ranking);
  }

  /** The table the query reads. */
  public SqlTable table() {
    return table;
  }

  /**
   * The query's windows, tumbling ({@code TUMBLE}) or sliding ({@code HOP}), with no lateness: the
   * pipeline adds its own.
   */
  public EventTimeWindowing windows() {
    return windows;
  }

  /** The names of the query's result columns, in the order of its {@code SELECT} list. */
  public List<String> resultNames() {
    return ranking != null ? ranking.names() : resultNames;
  }

  /**
   * The names of a result's key besides the window: the {@code GROUP BY} columns other than the
   * window, or a window Top-N's partition and rank.
   */
  public List<String> keyNames() {
    return ranking != null ? ranking.keyNames() : keyNames;
  }

  /**
   * The event of a record whose table row is {@code row} (Calcite's values, {@code rowtime} last)
   * and whose text is {@code raw}.
   *
   * @throws BadRecordException when the query's expressions fail on the row
   */
  Event event(Object[] row, Instant eventTime, String raw) throws BadRecordException {
    return events.event(row, eventTime, raw);
  }

  /**
   * Whether the query is a window Top-N over a session aggregate: its panes are each group's
   * sessions, as any session aggregate's, and {@link SessionRanking} gathers those of a partition
   * that end at the same instant into the pane the ranking ranks.
   */
  public boolean ranksSessions() {
    return ranking != null && ranking.overGroups() && windows.kind().merges();
  }

  /** The key of the partition a window Top-N ranks group {@code group} in. */
  EventKey partitionOf(EventKey group) {
    if (ranking == null) {
      throw new IllegalStateException("the query ranks nothing");
    }
    return EventKey.withNulls(ranking.partitionOf(group.parts().toArray(new String[0])));
  }

  /** Whether {@code key} is the key of the records that {@code WHERE} filters out. */
  public boolean isFiltered(EventKey key) {
    return events.isFiltered(key);
  }

  /**
   * The query's aggregate calls, over the events of one key and window. A query without one (a
   * window's distinct groups) counts its rows, so that each group and window still has a pane; the
   * count is in no result.
   */
  public CombineFn<Event, ?, List<@Nullable Object>> aggregate() {
    List<Aggregation> calls =
        aggregations.isEmpty() ? List.of(Aggregation.countOfRows()) : aggregations;
    if (ranking == null) {
      return AggregateColumnsFn.of(aggregations.isEmpty() ? calls : eventArguments.aggregations());
    }
    if (ranksSessions()) {
      return AggregateColumnsFn.of(calls);
    }
    if (!ranking.overGroups()) {
      return ranking.topRows();
    }
    List<Aggregation> afterTheKey = new ArrayList<>();
    for (Aggregation call : calls) {
      afterTheKey.add(call.shifted(keyColumns.length));
    }
    return new RankedGroupsFn(AggregateColumnsFn.of(afterTheKey), keyColumns.length);
  }

  /**
   * The result rows of {@code key}'s {@code pane}, whose aggregate is {@code aggregates}, as
   * Calcite's values in the order of {@link #resultNames()}: none when {@code HAVING} filters the
   * pane's row out, or when {@code key} is that of the filtered records; a window Top-N's top N.
   */
  public List<ResultRow> results(EventKey key, WindowPane pane, List<@Nullable Object> aggregates) {
    if (isFiltered(key)) {
      return List.of();
    }
    if (ranking != null) {
      return ranking.rows(this, key, pane, aggregates);
    }
    Object @Nullable [] row = groupRow(key, pane, aggregates);
    if (row == null) {
      return List.of();
    }
    List<@Nullable Object> keyValues = new ArrayList<>(keyTypes.size());
    for (int k = 0; k < keyTypes.size(); k++) {
      keyValues.add(keyValue(key, k));
    }
    return List.of(new ResultRow(row, keyValues, pane));
  }

  /**
   * The row of group {@code key}'s {@code pane}, whose aggregates are {@code aggregates}, by the
   * query's {@code SELECT} list; null when {@code HAVING} filters it out.
   */
  Object @Nullable [] groupRow(EventKey key, WindowPane pane, List<@Nullable Object> aggregates) {
    Object[] grouped = new Object[groupColumns.size() + aggregations.size()];
    for (int g = 0; g < groupColumns.size(); g++) {
      GroupColumn column = groupColumns.get(g);
      grouped[g] =
          switch (column.kind()) {
            case WINDOW_START -> table.timeZone().local(pane.windowStart().getMillis());
            case WINDOW_END -> table.timeZone().local(pane.windowEnd().getMillis());
            case KEY -> keyValue(key, column.keyPart());
          };
    }
    for (int a = 0; a < aggregations.size(); a++) {
      grouped[groupColumns.size() + a] = eventArguments.valueOf(a, key, aggregates.get(a));
    }
    return select == null ? grouped : select.apply(grouped);
  }

  /**
   * The value of a window table function's {@code window_start}, {@code window_end} or {@code
   * window_time} in {@code pane}, as Calcite holds a {@code TIMESTAMP}.
   */
  Object windowBound(String column, WindowPane pane) {
    long millis =
        switch (column) {
          case "window_start" -> pane.windowStart().getMillis();
          case "window_end" -> pane.windowEnd().getMillis();
          default -> pane.windowEnd().getMillis() - 1;
        };
    return table.timeZone().local(millis);
  }

  /** How many values the aggregate of a group gives: one per call, or the hidden count. */
  int aggregationCount() {
    return Math.max(1, aggregations.size());
  }

  /** How many parts a group's key has: the {@code GROUP BY} columns other than the window. */
  int groupKeyCount() {
    return keyColumns.length;
  }

  /** The query's {@code GROUP BY} columns, in the order of the aggregate's output. */
  List<GroupColumn> groupColumns() {
    return groupColumns;
  }

  /** The query's aggregate calls, in the order of the aggregate's output. */
  List<Aggregation> aggregations() {
    return aggregations;
  }

  /**
   * For each result column of the query before any ranking, the column of the aggregate's output
   * (the {@code GROUP BY} columns, then the calls) it shows unchanged; -1 when it is computed.
   */
  int[] resultGroupedColumns() {
    return resultGroupedColumns.clone();
  }

  /** The names of the result columns before any ranking: the {@code SELECT} list's. */
  List<String> groupResultNames() {
    return resultNames;
  }

  /** The types of the result columns before any ranking. */
  List<ColumnType> groupResultTypes() {
    return resultTypes;
  }

  /** The types of the {@code GROUP BY} columns other than the window, in their order. */
  List<ColumnType> groupKeyTypes() {
    return keyTypes;
  }

  /** Key part {@code part} of {@code key}, as the value it was made from; null for SQL's NULL. */
  private @Nullable Object keyValue(EventKey key, int part) {
    String text = key.part(part);
    return text == null ? null : keyTypes.get(part).fromKeyText(text);
  }

  /** The type of result column {@code column}. */
  ColumnType resultType(int column) {
    return resultTypes().get(column);
  }

  /** The types of the result columns, in the order of {@link #resultNames()}. */
  public List<ColumnType> resultTypes() {
    return ranking != null ? ranking.types() : resultTypes;
  }

  /** The types of a result's key, in the order of {@link #keyNames()}. */
  public List<ColumnType> keyTypes() {
    return ranking != null ? ranking.keyTypes() : keyTypes;
  }

  /** {@code value} of result column {@code column} as a result shows it ({@link ColumnType}). */
  public @Nullable Object shown(int column, @Nullable Object value) {
    return value == null ? null : resultType(column).shown(value);
  }

  /** {@code value} of key column {@code part} as a result shows it ({@link ColumnType}). */
  public @Nullable Object shownKey(int part, @Nullable Object value) {
    return value == null ? null : keyTypes().get(part).shown(value);
  }
}
