package dev.tidemark.sql;

import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Window Top-N and window deduplication ({@link RankedQuery}) on the pane engine: one pane per
 * partition and window, whose rows are ranked when it fires, and the top N written with their rank.
 * A late record in the allowed lateness fires the pane again, and the window is ranked anew with
 * it; a record past it is a late row, as in any query.
 *
 * <h2>What a pane holds</h2>
 *
 * <ul>
 *   <li>Over a window aggregate, the pane's key is the partition and its aggregate is the window
 *       aggregate of each group in the partition ({@link RankedGroupsFn}): a group's rank depends
 *       on every group's values, which change until the window closes, so every group is kept, as
 *       Flink SQL keeps them. The groups' rows are made, {@code HAVING} applied, and ranked when
 *       the pane fires; ties in the order are broken by the groups' keys, so a pane is always
 *       ranked the same.
 *   <li>Over a window table function's rows, the aggregate is the partition's top N rows so far
 *       ({@link TopRowsFn}): at most N rows per partition and window, however many arrive. Ties are
 *       broken by the order records arrived (a record's line in a recording, its Kafka offset), the
 *       first first, as Flink SQL's {@code ROW_NUMBER} does; but for deduplication that keeps the
 *       last row ({@code ORDER BY rowtime DESC}, rank 1), where the last one wins, as in Flink SQL.
 * </ul>
 *
 * <p>The rows are keyed, as a table's key, by the partition's columns, the window and the rank, so
 * a later pane's row for a rank replaces the earlier one's.
 */
final class WindowRanking implements Serializable {

  private static final long serialVersionUID = 1L;

  /** One expression of {@code ORDER BY}: a column of the ranked rows, or a value of a row. */
  record SortKey(int column, boolean descending, boolean nullsFirst) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Flink SQL's order of {@code NULL}: below every value, unless the query says. */
    static SortKey of(int column, boolean descending, @Nullable Boolean nullsFirst) {
      return new SortKey(column, descending, nullsFirst != null ? nullsFirst : !descending);
    }

    /** The order of values of mixed Java types as Calcite holds them, by this key. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    Comparator<@Nullable Object> values() {
      Comparator<Comparable> natural = Comparator.naturalOrder();
      Comparator<Comparable> direction = descending ? natural.reversed() : natural;
      return (Comparator)
          (nullsFirst ? Comparator.nullsFirst(direction) : Comparator.nullsLast(direction));
    }
  }

  /** Where a column of the ranked rows over a table's rows comes from. */
  record RowColumn(@Nullable String windowColumn, int valueSlot) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  private final RankedQuery.Over over;
  private final int limit;
  private final List<SortKey> order;
  private final boolean laterArrivalFirst;
  private final int[] partitionParts;
  private final List<ColumnType> partitionTypes;
  private final List<RowColumn> rowColumns;
  private final int valueCount;
  private final int rowWidth;
  private final int[] output;
  private final List<String> names;
  private final List<ColumnType> types;
  private final List<String> keyNames;
  private final List<ColumnType> keyTypes;
  private final int[] rankedPlaces;
  private final @Nullable RowExpressions kept;

  WindowRanking(
      RankedQuery.Over over,
      int limit,
      List<SortKey> order,
      boolean laterArrivalFirst,
      int[] partitionParts,
      List<ColumnType> partitionTypes,
      List<RowColumn> rowColumns,
      int valueCount,
      int rowWidth,
      int[] output,
      List<String> names,
      List<ColumnType> types,
      List<String> keyNames,
      int[] rankedPlaces,
      @Nullable RowExpressions kept) {
    this.over = over;
    this.limit = limit;
    this.order = List.copyOf(order);
    this.laterArrivalFirst = laterArrivalFirst;
    this.partitionParts = partitionParts.clone();
    this.partitionTypes = List.copyOf(partitionTypes);
    this.rowColumns = List.copyOf(rowColumns);
    this.valueCount = valueCount;
    this.rowWidth = rowWidth;
    this.output = output.clone();
    this.names = List.copyOf(names);
    this.types = List.copyOf(types);
    this.keyNames = List.copyOf(keyNames);
    this.rankedPlaces = rankedPlaces.clone();
    this.kept = kept;
    List<ColumnType> partitionAndRank = new ArrayList<>(partitionTypes);
    partitionAndRank.add(ColumnType.BIGINT);
    this.keyTypes = List.copyOf(partitionAndRank);
  }

  /** Whether the ranked rows are a window aggregate's groups, rather than a table's rows. */
  boolean overGroups() {
    return over == RankedQuery.Over.GROUPS;
  }

  /** The partition's key parts of {@code groupKey}, a group's key over a window aggregate. */
  @Nullable String[] partitionOf(@Nullable String[] groupKey) {
    @Nullable String[] partition = new String[Math.max(1, partitionParts.length)];
    Arrays.fill(partition, "");
    for (int p = 0; p < partitionParts.length; p++) {
      partition[p] = groupKey[partitionParts[p]];
    }
    return partition;
  }

  /** The top N rows of a partition so far, over a table's rows. */
  TopRowsFn topRows() {
    return new TopRowsFn(limit, order, laterArrivalFirst, valueCount);
  }

  /** The names of the result columns: the outer {@code SELECT} list's. */
  List<String> names() {
    return names;
  }

  /** The types of the result columns. */
  List<ColumnType> types() {
    return types;
  }

  /** The names of a row's key: the partition's columns, then the rank. */
  List<String> keyNames() {
    return keyNames;
  }

  /** The types of a row's key. */
  List<ColumnType> keyTypes() {
    return keyTypes;
  }

  /**
   * The rows of {@code key}'s {@code pane}, whose aggregate is {@code aggregate}: the top N,
   * ranked, each as the outer {@code SELECT} list has it.
   */
  List<WindowedQuery.ResultRow> rows(
      WindowedQuery query, EventKey key, WindowPane pane, List<@Nullable Object> aggregate) {
    List<RankedRow> ranked =
        overGroups() ? rankGroups(query, pane, aggregate) : tableRows(query, pane, aggregate);
    List<WindowedQuery.ResultRow> rows = new ArrayList<>(ranked.size());
    for (int rank = 1; rank <= ranked.size(); rank++) {
      Object[] row = ranked.get(rank - 1).row();
      if (!isKept(row, rank)) {
        continue;
      }
      Object[] values = new Object[output.length];
      for (int c = 0; c < output.length; c++) {
        values[c] = output[c] == rowWidth ? Long.valueOf(rank) : row[output[c]];
      }
      List<@Nullable Object> keyValues = new ArrayList<>(partitionTypes.size() + 1);
      for (int p = 0; p < partitionTypes.size(); p++) {
        String text = key.part(p);
        keyValues.add(text == null ? null : partitionTypes.get(p).fromKeyText(text));
      }
      keyValues.add((long) rank);
      rows.add(new WindowedQuery.ResultRow(values, keyValues, ranked.get(rank - 1).pane()));
    }
    return rows;
  }

  /**
   * Whether the row {@code row} of rank {@code rank} meets the outer {@code WHERE}'s conditions
   * beside the rank's bound: Flink SQL keeps the rows of the top N that meet them, their ranks as
   * they were.
   */
  private boolean isKept(Object[] row, int rank) {
    if (kept == null) {
      return true;
    }
    // The ranked row's columns, the rank among them, then the planner's event time, which none
    // is: Calcite's code reads it, so it has a value, the epoch.
    Object[] ranked = new Object[rankedPlaces.length + 1];
    ranked[rankedPlaces.length] = 0L;
    for (int c = 0; c < rankedPlaces.length; c++) {
      ranked[c] = rankedPlaces[c] == rowWidth ? Long.valueOf(rank) : row[rankedPlaces[c]];
    }
    return kept.apply(ranked) != null;
  }

  /** A ranked row, in the pane of its window. */
  private record RankedRow(Object[] row, WindowPane pane) {}

  /** A group's row of a window aggregate, in its pane, with its key parts, as key text. */
  private record GroupRow(RankedRow ranked, List<@Nullable String> key) {}

  /**
   * The groups' rows of a window aggregate, {@code HAVING} applied, the top N in rank order. Each
   * group is its key parts, then, over sessions, its session's start ({@link RankSessionGroupsFn}),
   * then its aggregates.
   */
  private List<RankedRow> rankGroups(
      WindowedQuery query, WindowPane pane, List<@Nullable Object> groups) {
    int keyWidth = query.groupKeyCount();
    int startWidth = query.ranksSessions() ? 1 : 0;
    int width = keyWidth + startWidth + query.aggregationCount();
    List<GroupRow> rows = new ArrayList<>();
    for (int at = 0; at + width <= groups.size(); at += width) {
      List<@Nullable String> groupKey = new ArrayList<>(keyWidth);
      for (int k = 0; k < keyWidth; k++) {
        groupKey.add((String) groups.get(at + k));
      }
      WindowPane groupPane =
          startWidth == 0 ? pane : pane.startingAt(new Instant((Long) groups.get(at + keyWidth)));
      Object @Nullable [] row =
          query.groupRow(
              EventKey.withNulls(groupKey.toArray(new String[0])),
              groupPane,
              groups.subList(at + keyWidth + startWidth, at + width));
      if (row != null) {
        rows.add(new GroupRow(new RankedRow(row, groupPane), groupKey));
      }
    }
    Comparator<GroupRow> ranking = (a, b) -> 0;
    for (SortKey key : order) {
      ranking = ranking.thenComparing(group -> group.ranked().row()[key.column()], key.values());
    }
    Comparator<@Nullable Object> text = SortKey.of(0, false, true).values();
    for (int k = 0; k < keyWidth; k++) {
      int part = k;
      ranking = ranking.thenComparing(group -> group.key().get(part), text);
    }
    rows.sort(ranking);
    return rows.stream().limit(limit).map(GroupRow::ranked).toList();
  }

  /** The top rows of a table's, in rank order, each with its window bounds and values. */
  private List<RankedRow> tableRows(
      WindowedQuery query, WindowPane pane, List<@Nullable Object> top) {
    List<RankedRow> rows = new ArrayList<>();
    for (int at = 0; at + valueCount <= top.size(); at += valueCount) {
      Object[] row = new Object[rowColumns.size()];
      for (int c = 0; c < row.length; c++) {
        RowColumn column = rowColumns.get(c);
        row[c] =
            column.windowColumn() != null
                ? query.windowBound(column.windowColumn(), pane)
                : top.get(at + column.valueSlot());
      }
      rows.add(new RankedRow(row, pane));
    }
    return rows;
  }
}
