package dev.tidemark.sql;

import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink SQL's {@code TO_TIMESTAMP(text [, format])}: a {@code TIMESTAMP} without a time zone, read
 * from {@code text} in {@code format} ({@code yyyy-MM-dd HH:mm:ss} by default); null where Flink's
 * is, for a null argument or a text that is not a time of that form. Calcite's own {@code
 * TO_TIMESTAMP} is PostgreSQL's, with other patterns.
 */
public final class FlinkTimeFunctions {

  private static final String DEFAULT_FORMAT = "yyyy-MM-dd HH:mm:ss";

  /** Each format parsed once: a query reads every row with the same one. */
  private static final Map<String, DateTimeFormatter> FORMATS = new ConcurrentHashMap<>();

  private FlinkTimeFunctions() {}

  /** {@code format}, whose missing fields of the time of day are 0, as Flink reads them. */
  private static DateTimeFormatter formatter(String format) {
    return new DateTimeFormatterBuilder()
        .appendPattern(format)
        .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
        .parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
        .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0)
        .toFormatter(Locale.ROOT);
  }

  /** {@code TO_TIMESTAMP(text)}, in {@code yyyy-MM-dd HH:mm:ss}. */
  public static @Nullable Timestamp toTimestamp(@Nullable String text) {
    return toTimestampIn(text, DEFAULT_FORMAT);
  }

  /**
   * {@code TO_TIMESTAMP(text, format)}. Calcite takes a {@link Timestamp} from a function as the
   * local date and time it shows, so the value is the text's own date and time, in no zone.
   */
  public static @Nullable Timestamp toTimestampIn(@Nullable String text, @Nullable String format) {
    if (text == null || format == null) {
      return null;
    }
    try {
      DateTimeFormatter formatter = FORMATS.computeIfAbsent(format, FlinkTimeFunctions::formatter);
      return Timestamp.valueOf(LocalDateTime.parse(text, formatter));
    } catch (DateTimeParseException | IllegalArgumentException e) {
      return null;
    }
  }
}
