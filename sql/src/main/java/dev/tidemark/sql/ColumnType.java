package dev.tidemark.sql;

import dev.tidemark.transforms.parse.BadRecordException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.apache.beam.sdk.coders.BigDecimalCoder;
import org.apache.beam.sdk.coders.BigEndianShortCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.ByteCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.FloatCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.Schema.TypeName;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The SQL types a record's column, a group key or a result may have, and how a value of each is
 * held: as Calcite's generated code holds it ({@code BIGINT} a {@code Long}, {@code TIMESTAMP} a
 * {@code Long} of epoch milliseconds), read from a record's text, and written back as text. The one
 * place where tidemark converts SQL values.
 */
public enum ColumnType {
  BIGINT,
  INTEGER,
  SMALLINT,
  TINYINT,
  DOUBLE,
  FLOAT,
  DECIMAL,
  VARCHAR,
  BOOLEAN,
  TIMESTAMP,
  DATE;

  /** How a {@code TIMESTAMP} result is written: as Flink SQL casts one to a string. */
  private static final DateTimeFormatter TIMESTAMP_TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  /**
   * A {@code TIMESTAMP} as SQL writes one, and Flink's JSON and CSV formats read it: {@code
   * 2023-11-14 22:13:20}, with up to nine digits of the second's fraction.
   */
  private static final DateTimeFormatter SQL_TIMESTAMP =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral(' ')
          .append(DateTimeFormatter.ISO_LOCAL_TIME)
          .toFormatter(Locale.ROOT);

  /** The type of a Beam schema field, or null when {@code sql} takes no column of that type. */
  static @Nullable ColumnType of(FieldType type) {
    TypeName name = type.getTypeName();
    return switch (name) {
      case INT64 -> BIGINT;
      case INT32 -> INTEGER;
      case INT16 -> SMALLINT;
      case BYTE -> TINYINT;
      case DOUBLE -> DOUBLE;
      case FLOAT -> FLOAT;
      case DECIMAL -> DECIMAL;
      case STRING -> VARCHAR;
      case BOOLEAN -> BOOLEAN;
      case DATETIME -> TIMESTAMP;
      case LOGICAL_TYPE ->
          SqlTypes.DATE.getIdentifier().equals(type.getLogicalType().getIdentifier()) ? DATE : null;
      default -> null;
    };
  }

  /** The type of a Calcite value, or null when {@code sql} cannot group by or write one. */
  static @Nullable ColumnType of(SqlTypeName type) {
    return switch (type) {
      case BIGINT -> BIGINT;
      case INTEGER -> INTEGER;
      case SMALLINT -> SMALLINT;
      case TINYINT -> TINYINT;
      case DOUBLE -> DOUBLE;
      case FLOAT, REAL -> FLOAT;
      case DECIMAL -> DECIMAL;
      case CHAR, VARCHAR -> VARCHAR;
      case BOOLEAN -> BOOLEAN;
      case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> TIMESTAMP;
      case DATE -> DATE;
      default -> null;
    };
  }

  /**
   * The value in {@code text}, as Calcite holds it: a number, true or false, any text, or, for a
   * {@code TIMESTAMP}, epoch milliseconds or an ISO-8601 instant.
   *
   * @throws BadRecordException naming {@code column}, when {@code text} is not a value of this type
   */
  Object parse(String column, String text) throws BadRecordException {
    return parse(column, text, ZoneOffset.UTC);
  }

  /**
   * The value in {@code text}, as {@link #parse(String, String)} reads it, where a {@code
   * TIMESTAMP} may also be written as SQL writes one ({@code 2023-11-14 22:13:20.5}), a local date
   * and time in {@code zone}; a {@code DATE} is {@code yyyy-MM-dd}, held as days since 1970-01-01.
   *
   * @throws BadRecordException naming {@code column}, when {@code text} is not a value of this type
   */
  Object parse(String column, String text, ZoneId zone) throws BadRecordException {
    try {
      return switch (this) {
        case BIGINT -> Long.parseLong(text.trim());
        case INTEGER -> Integer.parseInt(text.trim());
        case SMALLINT -> Short.parseShort(text.trim());
        case TINYINT -> Byte.parseByte(text.trim());
        case DOUBLE -> Double.parseDouble(text.trim());
        case FLOAT -> Float.parseFloat(text.trim());
        case DECIMAL -> new BigDecimal(text.trim());
        case VARCHAR -> text;
        case BOOLEAN -> parseBoolean(text.trim());
        case TIMESTAMP -> epochMillis(text.trim(), zone);
        case DATE -> (int) LocalDate.parse(text.trim()).toEpochDay();
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new BadRecordException(
          "field '" + column + "': '" + text + "' is not a " + name() + describe());
    }
  }

  private String describe() {
    return switch (this) {
      case TIMESTAMP -> " (epoch milliseconds, ISO-8601 or yyyy-MM-dd HH:mm:ss)";
      case DATE -> " (yyyy-MM-dd)";
      default -> "";
    };
  }

  private static Boolean parseBoolean(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw new NumberFormatException(text);
    };
  }

  private static Long epochMillis(String text, ZoneId zone) {
    if (!text.isEmpty() && (Character.isDigit(text.charAt(0)) || text.charAt(0) == '-')) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        // Not a number: an instant or a local date and time, below.
      }
    }
    if (text.length() > 10 && text.charAt(10) == ' ') {
      return LocalDateTime.parse(text, SQL_TIMESTAMP).atZone(zone).toInstant().toEpochMilli();
    }
    return Instant.parse(text).toEpochMilli();
  }

  /** A value of this type as a key's part holds it: as Calcite holds it, in text. */
  String keyText(Object value) {
    return value.toString();
  }

  /** The value whose {@link #keyText} is {@code text}. */
  Object fromKeyText(String text) {
    return switch (this) {
      case DATE -> Integer.parseInt(text);
      case TIMESTAMP -> Long.parseLong(text);
      default -> {
        try {
          yield parse("key", text);
        } catch (BadRecordException e) {
          throw new IllegalStateException("a key made by the query does not read back: " + text, e);
        }
      }
    };
  }

  /** The Beam type of a row's field of this type. */
  FieldType beamType() {
    return switch (this) {
      case BIGINT -> FieldType.INT64;
      case INTEGER -> FieldType.INT32;
      case SMALLINT -> FieldType.INT16;
      case TINYINT -> FieldType.BYTE;
      case DOUBLE -> FieldType.DOUBLE;
      case FLOAT -> FieldType.FLOAT;
      case DECIMAL -> FieldType.DECIMAL;
      case VARCHAR -> FieldType.STRING;
      case BOOLEAN -> FieldType.BOOLEAN;
      case TIMESTAMP -> FieldType.DATETIME;
      case DATE -> FieldType.logicalType(SqlTypes.DATE);
    };
  }

  /** The coder of a value of this type, as Calcite holds it. */
  Coder<?> coder() {
    return switch (this) {
      case BIGINT, TIMESTAMP -> VarLongCoder.of();
      case INTEGER, DATE -> VarIntCoder.of();
      case SMALLINT -> BigEndianShortCoder.of();
      case TINYINT -> ByteCoder.of();
      case DOUBLE -> DoubleCoder.of();
      case FLOAT -> FloatCoder.of();
      case DECIMAL -> BigDecimalCoder.of();
      case VARCHAR -> StringUtf8Coder.of();
      case BOOLEAN -> BooleanCoder.of();
    };
  }

  /**
   * The Beam type of this type's values as Beam SQL's aggregates take them: a {@code TIMESTAMP} is
   * a {@code BIGINT} here, since Calcite holds it as epoch milliseconds.
   */
  FieldType aggregatedType() {
    return switch (this) {
      case TIMESTAMP -> FieldType.INT64;
      case DATE -> FieldType.INT32;
      default -> beamType();
    };
  }

  /**
   * {@code value} as a result shows it: a number, true or false, the text; a {@code TIMESTAMP} as
   * {@code yyyy-MM-dd HH:mm:ss.SSS} in UTC, as Flink SQL writes one; a {@code DATE} as {@code
   * yyyy-MM-dd}.
   */
  Object shown(Object value) {
    return switch (this) {
      case TIMESTAMP -> TIMESTAMP_TEXT.format(Instant.ofEpochMilli((Long) value));
      case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
      default -> value;
    };
  }
}
