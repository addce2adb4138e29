package dev.tidemark.pipelines.io;

import java.io.Serializable;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How a sink makes a line of an element: its {@code text}, and its record {@code key} (null: none)
 * for a sink that keeps keys. A sink calls {@code text} once for each element it writes, so {@code
 * text} may count what is written, and calls {@code key} only if it keeps keys. An element that
 * {@code withdraws} its key (a session row that merged into another) is a tombstone where keys are
 * kept: the record's key with no value, which a compacted topic takes as a delete. A table sink
 * writes the fields of the line and of its key as the columns of {@code table}.
 *
 * @param <T> the elements written
 */
public record Lines<T>(
    SerializableFunction<T, String> text,
    SerializableFunction<T, @Nullable String> key,
    SerializableFunction<T, Boolean> withdraws,
    TableLayout table)
    implements Serializable {

  /** Lines of elements none of which withdraws its key. */
  public Lines(
      SerializableFunction<T, String> text,
      SerializableFunction<T, @Nullable String> key,
      TableLayout table) {
    this(text, key, element -> false, table);
  }
}
