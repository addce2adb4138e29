package dev.tidemark.sql;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A query as Beam SQL's planner takes it, written from the user's by {@link FlinkSyntax}, and the
 * way back: where a place in the written text is in the query as the user typed it, so that an
 * error names the user's line and column.
 *
 * @param query the query's text, written where it had to be
 * @param original the query's text as the user wrote it
 * @param windowFunction {@code CUMULATE} or {@code SESSION} when the planner's window table
 *     function stands for those windows; null when it is the query's own
 * @param splices where the text was written, in the order of the user's query
 */
record WrittenQuery(
    String query,
    String original,
    @Nullable String windowFunction,
    List<WrittenQuery.Splice> splices) {

  /**
   * Text from {@code from} to {@code to} (exclusive) of the user's query, written as {@code text}.
   */
  record Splice(int from, int to, String text) {}

  /** The query as the user typed it, nothing written. */
  static WrittenQuery asTyped(String query) {
    return new WrittenQuery(query, query, null, List.of());
  }

  /**
   * {@code query} with each of {@code splices}' parts written, in whatever order they were found.
   */
  static WrittenQuery spliced(String query, @Nullable String windowFunction, List<Splice> splices) {
    List<Splice> ordered = new ArrayList<>(splices);
    ordered.sort(Comparator.comparingInt(Splice::from));
    StringBuilder text = new StringBuilder();
    int at = 0;
    for (Splice splice : ordered) {
      text.append(query, at, splice.from()).append(splice.text());
      at = splice.to();
    }
    text.append(query.substring(at));
    return new WrittenQuery(text.toString(), query, windowFunction, List.copyOf(ordered));
  }

  /**
   * The line and column, from 1, of the user's query where the written query's {@code line} and
   * {@code column} are: inside a written part, where that part begins.
   */
  int[] placeInQuery(int line, int column) {
    if (splices.isEmpty() || line <= 0) {
      return new int[] {line, column};
    }
    int offset = offsetOf(query, line, column);
    int shift = 0;
    for (Splice splice : splices) {
      int writtenStart = splice.from() + shift;
      int writtenEnd = writtenStart + splice.text().length();
      if (offset < writtenStart) {
        break;
      }
      if (offset < writtenEnd) {
        shift = writtenStart - splice.from();
        offset = writtenStart;
        break;
      }
      shift += splice.text().length() - (splice.to() - splice.from());
    }
    return placeOf(offset - shift);
  }

  private int[] placeOf(int offset) {
    int line = 1;
    int lineStart = 0;
    for (int at = 0; at < offset && at < original.length(); at++) {
      if (original.charAt(at) == '\n') {
        line++;
        lineStart = at + 1;
      }
    }
    return new int[] {line, offset - lineStart + 1};
  }

  private static int offsetOf(String text, int line, int column) {
    int at = 0;
    for (int l = 1; l < line && at >= 0; l++) {
      at = text.indexOf('\n', at) + 1;
    }
    return Math.max(0, at) + column - 1;
  }
}
