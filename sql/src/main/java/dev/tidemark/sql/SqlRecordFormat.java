package dev.tidemark.sql;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.EventTimes;
import dev.tidemark.transforms.parse.JsonFieldTexts;
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
 * expressions. A record with a column missing or null, a value that is not of its column's type, or
 * a row the query's expressions fail on, is refused with the reason: a dead letter.
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
  private final String[] columns;
  private final List<ColumnType> types;

  private SqlRecordFormat(WindowedQuery query, Shape shape) {
    this.query = query;
    this.shape = shape;
    this.columns = query.table().columns().toArray(new String[0]);
    this.types = query.table().types();
  }

  /**
   * Records of {@code shape}, read for {@code query}, whose table names the column with each
   * record's event time ({@link SqlTable#of}).
   */
  public static SqlRecordFormat of(WindowedQuery query, Shape shape) {
    if (query.table().eventTimeColumn() == SqlTable.ELEMENT_TIMESTAMP) {
      throw new IllegalArgumentException(
          "a table of rows has no event-time column to read records by; use SqlTable.of");
    }
    return new SqlRecordFormat(query, shape);
  }

  /** The query the records are read for. */
  public WindowedQuery query() {
    return query;
  }

  @Override
  public Event parse(String raw) throws BadRecordException {
    @Nullable String[] texts = shape == Shape.JSON ? JsonFieldTexts.read(raw, columns) : csv(raw);
    Object[] row = new Object[columns.length + 1];
    for (int c = 0; c < columns.length; c++) {
      if (texts[c] == null) {
        throw new BadRecordException("missing field '" + columns[c] + "'");
      }
      row[c] = types.get(c).parse(columns[c], texts[c]);
    }
    int timeColumn = query.table().eventTimeColumn();
    long time = (Long) row[timeColumn];
    SessionTimeZone zone = query.table().timeZone();
    for (int c = 0; c < columns.length; c++) {
      if (types.get(c) == ColumnType.TIMESTAMP) {
        row[c] = zone.local((Long) row[c]);
      }
    }
    row[columns.length] = zone.local(time);
    return query.event(row, EventTimes.check(columns[timeColumn], time), raw);
  }

  private @Nullable String[] csv(String raw) throws BadRecordException {
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
      texts[c] = record.get(c);
    }
    return texts;
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
