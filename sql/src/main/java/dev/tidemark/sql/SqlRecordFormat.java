package dev.tidemark.sql;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.EventTimes;
import dev.tidemark.transforms.parse.FieldTexts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads a query's records, JSON objects or CSV lines with the table's columns, into the events its
 * pane engine takes ({@link WindowedQuery#event}): each column typed as the schema says, the event
 * time from the event-time column, the key and the aggregates' arguments from the query's own
 * expressions. A field that is {@code null} or missing in a JSON object, or empty in a CSV line, is
 * SQL's {@code NULL}, as Flink SQL's formats read it. A record whose event time or {@code NOT NULL}
 * column is {@code NULL}, whose value is not of its column's type, or whose row the query's
 * expressions fail on, is refused with the reason: a dead letter.
 */
public final class SqlRecordFormat implements EventFormat {

  private static final long serialVersionUID = 1L;

  /** How a record is written. */
  public enum Shape {
    /** A JSON object with a field per column; other fields are ignored. */
    JSON,
    /** A CSV line with the columns in the schema's order, quoted as RFC 4180 says. */
    CSV
  }

  private final WindowedQuery query;
  private final Shape shape;
  private final List<DeclaredColumn> recordColumns;
  private final String[] columns;
  private final EventTimeColumn eventTime;

  /** The record column that is the event-time column itself, not a query column; -1 if none. */
  private final int timeOnlyColumn;

  /**
   * Whether the event time is a query column's own value, epoch milliseconds ({@code BIGINT}) or a
   * {@code TIMESTAMP}, which a record's parse reads once for both.
   */
  private final boolean timeIsAValue;

  private SqlRecordFormat(WindowedQuery query, Shape shape, EventTimeColumn eventTime) {
    this.query = query;
    this.shape = shape;
    this.recordColumns = query.table().recordColumns();
    this.columns = recordColumns.stream().map(DeclaredColumn::name).toArray(String[]::new);
    this.eventTime = eventTime;
    this.timeOnlyColumn = query.table().timeColumnIsRowtime() ? eventTime.column() : -1;
    ColumnType timeType = recordColumns.get(eventTime.column()).type();
    this.timeIsAValue =
        timeOnlyColumn < 0
            && eventTime.readsTimestamps()
            && (timeType == ColumnType.BIGINT || timeType == ColumnType.TIMESTAMP);
  }

  /**
   * Records of {@code shape}, read for {@code query}, whose table names the column with each
   * record's event time ({@link SqlTable#of}).
   */
  public static SqlRecordFormat of(WindowedQuery query, Shape shape) {
    EventTimeColumn eventTime = query.table().eventTime();
    if (eventTime == null) {
      throw new IllegalArgumentException(
          "a table of rows has no event-time column to read records by; use SqlTable.of");
    }
    return new SqlRecordFormat(query, shape, eventTime);
  }

  /** The query the records are read for. */
  public WindowedQuery query() {
    return query;
  }

  @Override
  public Event parse(String raw) throws BadRecordException {
    FieldTexts texts = shape == Shape.JSON ? FieldTexts.ofJson(raw, columns) : csv(raw);
    SessionTimeZone zone = query.table().timeZone();
    int timeColumn = eventTime.column();
    @Nullable Object timeValue = null;
    long time;
    if (timeIsAValue && isBigintInPlace(texts, timeColumn)) {
      time = texts.wholeNumber(timeColumn);
      timeValue = time;
    } else {
      String timeText = texts.text(timeColumn);
      if (timeText == null) {
        throw isNull(raw, eventTime.name(), "it holds the event time");
      }
      timeValue = timeIsAValue ? timeValue(timeText, zone) : null;
      time = timeValue != null ? (Long) timeValue : eventTime.epochMillis(timeText, zone.zone());
    }
    Object[] row = new Object[columns.length + (timeOnlyColumn < 0 ? 1 : 0)];
    int at = 0;
    for (int c = 0; c < columns.length; c++) {
      if (c == timeOnlyColumn) {
        continue;
      }
      DeclaredColumn column = recordColumns.get(c);
      Object value;
      if (c == timeColumn && timeValue != null) {
        value = timeValue;
      } else if (isBigintInPlace(texts, c)) {
        value = texts.wholeNumber(c);
      } else {
        String text = texts.text(c);
        if (text == null) {
          if (!column.nullable()) {
            throw isNull(raw, column.name(), "the column is NOT NULL");
          }
          row[at++] = null;
          continue;
        }
        value = column.parse(text, zone.zone());
      }
      row[at++] = column.type() == ColumnType.TIMESTAMP ? zone.local((Long) value) : value;
    }
    long rowtime = zone.local(time);
    // In UTC, rowtime is the event time itself: a BIGINT event-time column's value is it.
    row[at] = timeValue instanceof Long value && value == rowtime ? value : (Object) rowtime;
    return query.event(row, EventTimes.check(eventTime.name(), time), raw);
  }

  /** Whether column {@code c} is a {@code BIGINT} whose integer the record holds as its digits. */
  private boolean isBigintInPlace(FieldTexts texts, int c) {
    return recordColumns.get(c).type() == ColumnType.BIGINT && texts.isWholeNumber(c);
  }

  /**
   * The event-time column's value, which is the event time too: parsed once for both. Null when the
   * text is no value of the column, or a value no time reads ({@code +5} is a {@code BIGINT}, never
   * a time): the event time is then read on its own, and refuses the record in its words.
   */
  private @Nullable Object timeValue(String text, SessionTimeZone zone) {
    if (text.trim().startsWith("+")) {
      return null;
    }
    try {
      return recordColumns.get(eventTime.column()).parse(text, zone.zone());
    } catch (BadRecordException notAValue) {
      return null;
    }
  }

  /** Why a record whose field {@code column} is null or missing is refused. */
  private BadRecordException isNull(String raw, String column, String why)
      throws BadRecordException {
    boolean missing = shape == Shape.JSON && !FieldTexts.jsonHas(raw, column);
    return new BadRecordException(
        (missing ? "missing field '" + column + "'" : "field '" + column + "' is null")
            + "; "
            + why);
  }

  private FieldTexts csv(String raw) throws BadRecordException {
    List<CSVRecord> records;
    try (CSVParser parser = CSVParser.parse(raw, CSVFormat.DEFAULT)) {
      records = parser.getRecords();
    } catch (IOException | UncheckedIOException e) {
      throw new BadRecordException("not a CSV line: " + e.getMessage());
    }
    if (records.size() != 1 || records.get(0).size() != columns.length) {
      throw new BadRecordException(
          "expected "
              + columns.length
              + " comma-separated columns ("
              + String.join(",", columns)
              + ")");
    }
    CSVRecord record = records.get(0);
    @Nullable String[] texts = new String[columns.length];
    for (int c = 0; c < columns.length; c++) {
      String text = record.get(c);
      texts[c] = text.isEmpty() ? null : text;
    }
    return FieldTexts.of(texts);
  }

  @Override
  public @Nullable String anotherFormat(String raw) {
    String other = formatThatReads(raw);
    return other == null ? null : (other.equals("json") ? "JSON objects" : "CSV lines");
  }

  @Override
  public @Nullable String formatThatReads(String raw) {
    boolean looksJson = raw.stripLeading().startsWith("{");
    if (shape == Shape.CSV && looksJson) {
      return "json";
    }
    return shape == Shape.JSON && !looksJson && raw.contains(",") ? "csv" : null;
  }
}
