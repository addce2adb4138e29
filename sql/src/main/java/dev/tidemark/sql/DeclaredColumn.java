package dev.tidemark.sql;

import dev.tidemark.transforms.parse.BadRecordException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.ZoneId;

/**
 * A column of a table's records as its definition declares it: its name, its type, whether a record
 * may leave it {@code NULL}, and the scale of a {@code DECIMAL}, to which each value is rounded as
 * Flink rounds it.
 */
record DeclaredColumn(String name, ColumnType type, boolean nullable, int scale)
    implements Serializable {

  /** The value of this column in {@code text}, a {@code TIMESTAMP} without a zone local in zone. */
  Object parse(String text, ZoneId zone) throws BadRecordException {
    Object value = type.parse(name, text, zone);
    return type == ColumnType.DECIMAL
        ? ((BigDecimal) value).setScale(scale, RoundingMode.HALF_UP)
        : value;
  }
}
