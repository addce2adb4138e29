package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of one batch of a table sink, merged as the table will merge them, so that one statement
 * writes each table key at most once (PostgreSQL refuses an {@code ON CONFLICT DO UPDATE} that
 * meets the same key twice).
 *
 * <p>For panes, a key's newest pane is kept by the pane rule: a final pane beats any other, then a
 * higher pane a lower one, and of equal ones the later (a restore's repeat). A row that withdraws
 * its key (a session that merged away) drops the key's earlier panes of the batch and deletes its
 * row; a pane that comes after it in the batch is written after the delete. Records are all kept,
 * in order; the table keeps one per origin.
 */
final class RowBatch {

  private final TableLayout layout;
  private final int keySize;
  private final int finalColumn;
  private final int paneColumn;
  private final Map<List<@Nullable Object>, @Nullable Object[]> panes = new LinkedHashMap<>();
  private final Set<List<@Nullable Object>> deletes = new LinkedHashSet<>();
  private final List<@Nullable Object[]> records = new ArrayList<>();

  RowBatch(TableLayout layout) {
    this.layout = layout;
    this.keySize = layout.key().size();
    List<TableColumn> columns = layout.columns();
    this.finalColumn = indexOf(columns, "final");
    this.paneColumn = indexOf(columns, "pane");
  }

  /** Adds {@code row}, which deletes its key's row instead if it {@code withdraws} it. */
  void add(@Nullable Object[] row, boolean withdraws) {
    if (layout.rows() == TableLayout.Rows.RECORDS) {
      records.add(row);
      return;
    }
    List<@Nullable Object> key = Arrays.asList(Arrays.copyOf(row, keySize));
    if (withdraws) {
      panes.remove(key);
      deletes.add(key);
      return;
    }
    @Nullable Object[] kept = panes.get(key);
    if (kept == null || !isNewer(kept, row)) {
      panes.put(key, row);
    }
  }

  /** Whether {@code kept} is newer than {@code row} by the pane rule. */
  private boolean isNewer(@Nullable Object[] kept, @Nullable Object[] row) {
    int byFinality = Boolean.compare((Boolean) kept[finalColumn], (Boolean) row[finalColumn]);
    if (byFinality != 0) {
      return byFinality > 0;
    }
    return (Long) kept[paneColumn] > (Long) row[paneColumn];
  }

  boolean isEmpty() {
    return panes.isEmpty() && deletes.isEmpty() && records.isEmpty();
  }

  /** How many rows the batch writes or deletes. */
  int size() {
    return panes.size() + deletes.size() + records.size();
  }

  TableLayout layout() {
    return layout;
  }

  /** The keys whose rows are deleted, before {@link #rows()} are written. */
  Collection<List<@Nullable Object>> deletes() {
    return deletes;
  }

  /** The rows written: each key's newest pane, or every record. */
  Collection<@Nullable Object[]> rows() {
    return layout.rows() == TableLayout.Rows.PANES ? panes.values() : records;
  }

  void clear() {
    panes.clear();
    deletes.clear();
    records.clear();
  }

  private static int indexOf(List<TableColumn> columns, String name) {
    for (int c = 0; c < columns.size(); c++) {
      if (columns.get(c).name().equals(name)) {
        return c;
      }
    }
    return -1;
  }
}
