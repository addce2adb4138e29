package dev.tidemark.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Makes a window Top-N's ranking ({@link WindowRanking}) from its reading ({@link RankedQuery}) and
 * the planned query of the rows it ranks: each column it names found among that query's, or refused
 * in one line that names it.
 */
final class WindowRankings {

  private WindowRankings() {}

  static WindowRanking of(RankedQuery ranked, WindowedQuery planned) throws InvalidQueryException {
    if (ranked.limit() > 10_000) {
      throw WindowedQueryPlanner.refused(
          "a window Top-N keeps at most 10000 rows per window; " + ranked.limit() + " is more");
    }
    return ranked.over() == RankedQuery.Over.GROUPS
        ? overGroups(ranked, planned)
        : overRows(ranked, planned);
  }

  private static WindowRanking overGroups(RankedQuery ranked, WindowedQuery planned)
      throws InvalidQueryException {
    List<String> aggregateColumns = planned.groupResultNames();
    List<ColumnType> aggregateTypes = planned.groupResultTypes();
    // The ranking's own columns: the aggregate's it selects, as places in the aggregate's row.
    List<Integer> ranks = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<ColumnType> types = new ArrayList<>();
    List<String> selected = ranked.items() == null ? aggregateColumns : ranked.items();
    for (String name : selected) {
      ranks.add(columnOf(aggregateColumns, name, "the window aggregate"));
      names.add(name);
      types.add(aggregateTypes.get(ranks.get(ranks.size() - 1)));
    }
    List<WindowRanking.SortKey> order = new ArrayList<>();
    for (RankedQuery.SortItem item : ranked.order()) {
      order.add(
          WindowRanking.SortKey.of(
              columnOf(aggregateColumns, item.column(), "the window aggregate"),
              item.descending(),
              item.nullsFirst()));
    }
    int[] grouped = planned.resultGroupedColumns();
    List<GroupColumn> groupColumns = planned.groupColumns();
    int[] partitionParts = new int[ranked.partition().size()];
    List<ColumnType> partitionTypes = new ArrayList<>();
    for (int p = 0; p < partitionParts.length; p++) {
      String name = ranked.partition().get(p);
      int source = grouped[columnOf(aggregateColumns, name, "the window aggregate")];
      if (source < 0
          || source >= groupColumns.size()
          || groupColumns.get(source).kind() != GroupColumn.Kind.KEY) {
        throw WindowedQueryPlanner.refused(
            "PARTITION BY "
                + name
                + ": a window Top-N over an aggregate partitions by the aggregate's GROUP BY"
                + " columns");
      }
      partitionParts[p] = groupColumns.get(source).keyPart();
      partitionTypes.add(planned.groupKeyTypes().get(partitionParts[p]));
    }
    return ranking(
        ranked,
        planned.table().timeZone(),
        order,
        false,
        partitionParts,
        partitionTypes,
        List.of(),
        0,
        aggregateColumns.size(),
        indexesOf(ranks),
        names,
        types);
  }

  private static WindowRanking overRows(RankedQuery ranked, WindowedQuery planned)
      throws InvalidQueryException {
    int[] grouped = planned.resultGroupedColumns();
    int groupCount = planned.groupColumns().size();
    List<Aggregation> calls = planned.aggregations();
    List<WindowRanking.RowColumn> rowColumns = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<ColumnType> types = new ArrayList<>();
    for (RankedQuery.RowItem item : ranked.rowItems()) {
      names.add(item.name());
      if (item.windowColumn() != null) {
        rowColumns.add(new WindowRanking.RowColumn(item.windowColumn(), -1));
        types.add(ColumnType.TIMESTAMP);
      } else {
        Aggregation call = calls.get(grouped[item.resultColumn()] - groupCount);
        rowColumns.add(new WindowRanking.RowColumn(null, call.argumentSlot()));
        types.add(planned.groupResultTypes().get(item.resultColumn()));
      }
    }
    List<WindowRanking.SortKey> order = new ArrayList<>();
    for (RankedQuery.SortItem item : ranked.order()) {
      Aggregation call = calls.get(grouped[item.resultColumn()] - groupCount);
      order.add(
          WindowRanking.SortKey.of(call.argumentSlot(), item.descending(), item.nullsFirst()));
    }
    int valueCount = 0;
    for (Aggregation call : calls) {
      valueCount = Math.max(valueCount, call.argumentSlot() + 1);
    }
    int[] partitionParts = new int[ranked.partition().size()];
    for (int p = 0; p < partitionParts.length; p++) {
      partitionParts[p] = p;
    }
    List<Integer> ranks = new ArrayList<>();
    for (int c = 0; c < rowColumns.size(); c++) {
      ranks.add(c);
    }
    boolean keepsTheLast =
        ranked.orderedByEventTimeOnly() && ranked.limit() == 1 && order.get(0).descending();
    return ranking(
        ranked,
        planned.table().timeZone(),
        order,
        keepsTheLast,
        partitionParts,
        planned.groupKeyTypes(),
        rowColumns,
        valueCount,
        rowColumns.size(),
        indexesOf(ranks),
        names,
        types);
  }

  /**
   * The ranking, its outer {@code SELECT} list taken from the ranking's columns, whose places in a
   * ranked row of {@code rowWidth} values are {@code places}, names {@code names} and types {@code
   * types}; the rank after them, at the place {@code rowWidth}. A condition of the outer {@code
   * WHERE} beside the rank's bound reads those columns, the rank among them.
   */
  private static WindowRanking ranking(
      RankedQuery ranked,
      SessionTimeZone zone,
      List<WindowRanking.SortKey> order,
      boolean laterArrivalFirst,
      int[] partitionParts,
      List<ColumnType> partitionTypes,
      List<WindowRanking.RowColumn> rowColumns,
      int valueCount,
      int rowWidth,
      int[] places,
      List<String> names,
      List<ColumnType> types)
      throws InvalidQueryException {
    List<String> rankedNames = new ArrayList<>(names);
    rankedNames.add(ranked.rankName());
    List<String> outer = ranked.outer() == null ? rankedNames : ranked.outer();
    int[] output = new int[outer.size()];
    List<ColumnType> outputTypes = new ArrayList<>();
    for (int c = 0; c < output.length; c++) {
      int column = columnOf(rankedNames, outer.get(c), "the ranked rows");
      boolean rank = column == names.size();
      output[c] = rank ? rowWidth : places[column];
      outputTypes.add(rank ? ColumnType.BIGINT : types.get(column));
    }
    List<String> keyNames = new ArrayList<>(ranked.partition());
    keyNames.add(ranked.rankName());
    int[] rankedPlaces = Arrays.copyOf(places, places.length + 1);
    rankedPlaces[places.length] = rowWidth;
    List<ColumnType> rankedTypes = new ArrayList<>(types);
    rankedTypes.add(ColumnType.BIGINT);
    @Nullable RowExpressions kept =
        ranked.kept() == null
            ? null
            : WindowedQueryPlanner.rankedRowCondition(
                ranked.kept(), rankedNames, rankedTypes, zone);
    return new WindowRanking(
        ranked.over(),
        (int) ranked.limit(),
        order,
        laterArrivalFirst,
        partitionParts,
        partitionTypes,
        rowColumns,
        valueCount,
        rowWidth,
        output,
        outer,
        outputTypes,
        keyNames,
        rankedPlaces,
        kept);
  }

  private static int[] indexesOf(List<Integer> places) {
    return places.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int columnOf(List<String> columns, String name, String where)
      throws InvalidQueryException {
    @Nullable Integer found = null;
    for (int c = 0; c < columns.size(); c++) {
      if (columns.get(c).equals(name)) {
        found = c;
      }
    }
    if (found == null) {
      throw WindowedQueryPlanner.refused(
          "a window Top-N names "
              + name
              + ", which is not a column of "
              + where
              + " ("
              + String.join(", ", columns)
              + ")");
    }
    return found;
  }
}
