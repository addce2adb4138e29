package dev.tidemark.sql;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.linq4j.function.NonDeterministic;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink SQL's time functions that Calcite has not, or has with another meaning:
 *
 * <ul>
 *   <li>{@code TO_TIMESTAMP(text [, format])}: a {@code TIMESTAMP} without a time zone, read from
 *       {@code text} in {@code format} ({@code yyyy-MM-dd HH:mm:ss} by default); null for a null
 *       argument or a text that is not a time of that form. Calcite's own is PostgreSQL's.
 *   <li>{@code FROM_UNIXTIME(seconds [, format])}: the instant {@code seconds} after the epoch as
 *       text in the session's time zone.
 *   <li>{@code UNIX_TIMESTAMP(text [, format])}: the seconds since the epoch of {@code text}, a
 *       local time in the session's time zone; {@code Long.MIN_VALUE} for a text that is not one,
 *       as Flink's; and {@code UNIX_TIMESTAMP()}, the clock's.
 * </ul>
 *
 * <p>A function has no session: {@link FlinkSyntax} writes the format and the zone as the last
 * arguments of the last two, so the methods here take them.
 */
public final class FlinkTimeFunctions {

  /** The format of a time's text when a function is given none. */
  static final String DEFAULT_FORMAT = "yyyy-MM-dd HH:mm:ss";

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

  /** {@code FROM_UNIXTIME(seconds, format)} in {@code zone}, which {@link FlinkSyntax} writes. */
  public static @Nullable String fromUnixtime(
      @Nullable Long seconds, @Nullable String format, String zone) {
    if (seconds == null || format == null) {
      return null;
    }
    return Instant.ofEpochSecond(seconds)
        .atZone(ZoneId.of(zone))
        .format(FORMATS.computeIfAbsent(format, FlinkTimeFunctions::formatter));
  }

  /** {@code UNIX_TIMESTAMP(text, format)} in {@code zone}, which {@link FlinkSyntax} writes. */
  public static @Nullable Long unixTimestamp(
      @Nullable String text, @Nullable String format, String zone) {
    if (text == null || format == null) {
      return null;
    }
    try {
      DateTimeFormatter formatter = FORMATS.computeIfAbsent(format, FlinkTimeFunctions::formatter);
      return LocalDateTime.parse(text, formatter).atZone(ZoneId.of(zone)).toEpochSecond();
    } catch (DateTimeParseException e) {
      return Long.MIN_VALUE;
    }
  }

  /** {@code UNIX_TIMESTAMP()}: the clock's seconds since the epoch. */
  @NonDeterministic
  public static Long unixTimestampNow() {
    return System.currentTimeMillis() / 1000;
  }
}
