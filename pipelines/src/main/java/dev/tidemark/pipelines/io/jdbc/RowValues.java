package dev.tidemark.pipelines.io.jdbc;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The values of a table row, in its layout's column order, from a JSON line and its record key: a
 * column's field is looked up in the line, then in the key (a JSON object for results), and a
 * record's origin is the key itself (text for late records and dead letters). Numbers are read
 * exactly (a decimal keeps its digits), a {@code TIMESTAMP} as a local date-time, an {@code
 * INSTANT} as epoch milliseconds in UTC.
 */
final class RowValues {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private RowValues() {}

  /** The row of {@code line} and its record {@code key} (null: none) in {@code layout}. */
  static @Nullable Object[] of(TableLayout layout, String line, @Nullable String key) {
    JsonNode fields = parse(line);
    boolean records = layout.rows() == TableLayout.Rows.RECORDS;
    JsonNode keyFields = records || key == null ? MissingNode.getInstance() : parse(key);
    List<TableColumn> columns = layout.columns();
    @Nullable Object[] row = new Object[columns.size()];
    for (int c = 0; c < row.length; c++) {
      TableColumn column = columns.get(c);
      if (records && column.equals(TableLayout.ORIGIN)) {
        row[c] = key;
        continue;
      }
      JsonNode value = fields.path(column.field());
      if (value.isMissingNode()) {
        value = keyFields.path(column.field());
      }
      row[c] = value.isMissingNode() || value.isNull() ? null : value(column, value);
    }
    return row;
  }

  private static Object value(TableColumn column, JsonNode value) {
    return switch (column.kind()) {
      case TEXT -> value.isTextual() ? value.textValue() : value.toString();
      case INTEGER -> value.asInt();
      case BIGINT -> value.asLong();
      case REAL -> (float) value.asDouble();
      case DOUBLE -> value.asDouble();
      case DECIMAL -> value.isNumber() ? value.decimalValue() : new BigDecimal(value.asText());
      case BOOLEAN -> value.asBoolean();
      case TIMESTAMP -> LocalDateTime.parse(value.asText().replace(' ', 'T'));
      case INSTANT ->
          OffsetDateTime.ofInstant(Instant.ofEpochMilli(value.asLong()), ZoneOffset.UTC);
      case DATE -> LocalDate.parse(value.asText());
    };
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException("a line tidemark wrote is not JSON: " + json, e);
    }
  }
}
