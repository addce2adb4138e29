package dev.tidemark.sql;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.watermark.Watermarks;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * What each record's row becomes before a query's grouping ({@link WindowedQuery#event}): the
 * query's steps run on it ({@code WHERE} and the expressions the grouping reads), then its key and
 * the values its aggregate calls read ({@link EventArguments}). A record that {@code WHERE} filters
 * out is an event under a key of its own, which no row of the query has.
 */
final class RowEvents implements Serializable {

  private static final long serialVersionUID = 1L;

  /** How the key of the records {@code WHERE} filtered out shows itself, in explain's output. */
  static final String FILTERED = "(filtered out by WHERE)";

  /** Counts the records {@code WHERE} filters out; looked up once rather than for each record. */
  private static final Counter FILTERED_RECORDS = TidemarkMetrics.filteredRecords();

  private final List<RowStep> steps;
  private final int[] keyColumns;
  private final List<ColumnType> keyTypes;
  private final int[] carried;
  private final @Nullable WindowRanking partitioned;
  private final EventKey filteredKey;

  /**
   * Rows through {@code steps}, keyed by columns {@code keyColumns} of types {@code keyTypes},
   * carrying columns {@code carried}; when {@code partitioned} is a window Top-N's ranking of a
   * window aggregate's groups in one pane per partition, keyed by the partition, and carrying the
   * group's key first.
   */
  RowEvents(
      List<RowStep> steps,
      int[] keyColumns,
      List<ColumnType> keyTypes,
      int[] carried,
      @Nullable WindowRanking partitioned) {
    this.steps = List.copyOf(steps);
    this.keyColumns = keyColumns.clone();
    this.keyTypes = List.copyOf(keyTypes);
    this.carried = carried.clone();
    this.partitioned = partitioned;
    // One part more than any key of a row has, so no row's key is ever this one.
    String[] filtered = new String[Math.max(1, keyColumns.length) + 1];
    Arrays.fill(filtered, "");
    filtered[0] = FILTERED;
    this.filteredKey = EventKey.of(filtered);
  }

  /**
   * The event of a record whose table row is {@code row} (Calcite's values, {@code rowtime} last)
   * and whose text is {@code raw}.
   *
   * @throws BadRecordException when the query's expressions fail on the row
   */
  Event event(Object[] row, Instant eventTime, String raw) throws BadRecordException {
    Object @Nullable [] projected = beforeGrouping(row);
    if (projected == null) {
      FILTERED_RECORDS.inc();
      return new Event(filteredKey, eventTime, 0, raw);
    }
    // A query without GROUP BY columns has one group, whose key is one empty part.
    @Nullable String[] parts =
        keyColumns.length == 0 ? new String[] {""} : new String[keyColumns.length];
    for (int k = 0; k < keyColumns.length; k++) {
      Object value = projected[keyColumns[k]];
      parts[k] = value == null ? null : keyTypes.get(k).keyText(value);
    }
    int groupKey = partitioned != null ? keyColumns.length : 0;
    @Nullable Object[] arguments = new Object[groupKey + carried.length];
    System.arraycopy(parts, 0, arguments, 0, groupKey);
    for (int a = 0; a < carried.length; a++) {
      arguments[groupKey + a] = projected[carried[a]];
    }
    return new Event(
        EventKey.withNulls(partitioned != null ? partitioned.partitionOf(parts) : parts),
        eventTime,
        0,
        raw,
        Watermarks.MIN,
        Event.UNKNOWN_POSITION,
        null,
        Arrays.asList(arguments));
  }

  private Object @Nullable [] beforeGrouping(Object[] row) throws BadRecordException {
    Object[] current = row;
    try {
      for (int s = 0; s < steps.size(); s++) {
        current = steps.get(s).apply(current);
        if (current == null) {
          return null;
        }
      }
    } catch (RuntimeException e) {
      throw new BadRecordException("the query cannot evaluate this record: " + e);
    }
    return current;
  }

  /** Whether {@code key} is the key of the records that {@code WHERE} filters out. */
  boolean isFiltered(EventKey key) {
    return key.equals(filteredKey);
  }
}
