package dev.tidemark.pipelines.io;

/**
 * The type of a table sink's column ({@link TableColumn}), as tidemark's JSON lines hold its value:
 * text, a whole number, a floating-point number, an exact decimal, true or false, a local date-time
 * as {@code yyyy-MM-dd HH:mm:ss[.SSS]} text ({@code TIMESTAMP}), or an instant as epoch
 * milliseconds ({@code INSTANT}: a window's start and end, a watermark). A database's dialect gives
 * each its own type.
 */
public enum ColumnKind {
  TEXT,
  INTEGER,
  BIGINT,
  REAL,
  DOUBLE,
  DECIMAL,
  BOOLEAN,
  TIMESTAMP,
  INSTANT,
  DATE
}
