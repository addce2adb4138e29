package dev.tidemark.sql;

import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A query, or a schema, that {@code sql} does not run: a syntax error, an unknown column, or a
 * construct it does not take. Thrown while the query is planned, before any pipeline exists.
 */
public final class InvalidQueryException extends Exception {

  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final @Nullable String unknownColumn;
  private final List<String> columns;

  InvalidQueryException(
      String message, int line, int column, @Nullable String unknownColumn, List<String> columns) {
    super(message);
    this.line = line;
    this.column = column;
    this.unknownColumn = unknownColumn;
    this.columns = List.copyOf(columns);
  }

  /** A query {@code sql} does not take, for the reason {@code message}. */
  static InvalidQueryException refused(String message) {
    return new InvalidQueryException(message, 0, 0, null, List.of());
  }

  /**
   * The same error, in the query that {@code written} was written from: its place, and the place
   * its message names, mapped back ({@link WrittenQuery#placeInQuery}).
   */
  InvalidQueryException placedIn(WrittenQuery written) {
    if (line <= 0) {
      return this;
    }
    int[] place = written.placeInQuery(line, column);
    String message =
        getMessage()
            .replaceFirst(
                "line " + line + ", column " + column, "line " + place[0] + ", column " + place[1]);
    return new InvalidQueryException(message, place[0], place[1], unknownColumn, columns);
  }

  /** The line of the query where the error is, from 1; 0 when it has no place. */
  public int line() {
    return line;
  }

  /** The column of {@link #line()} where the error is, from 1; 0 when it has no place. */
  public int column() {
    return column;
  }

  /** The column name the query used that its table does not have; null for other errors. */
  public @Nullable String unknownColumn() {
    return unknownColumn;
  }

  /** The columns the query's table has, for an unknown column; empty for other errors. */
  public List<String> columns() {
    return columns;
  }
}
