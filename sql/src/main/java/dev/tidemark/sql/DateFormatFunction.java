package dev.tidemark.sql;

import java.sql.Timestamp;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code DATE_FORMAT(timestamp, pattern)} as Flink SQL defines it: the timestamp written with a
 * {@link DateTimeFormatter} pattern such as {@code 'yyyy-MM-dd HH:mm:ss'}. Calcite's own {@code
 * DATE_FORMAT} is MySQL's, with {@code %Y} patterns, so S5's query, written for Flink, needs this
 * one.
 */
public final class DateFormatFunction {

  /** Each pattern parsed once: a query formats every row with the same one or two. */
  private static final Map<String, DateTimeFormatter> PATTERNS = new ConcurrentHashMap<>();

  private DateFormatFunction() {}

  /**
   * {@code timestamp} in {@code pattern}. Calcite hands a {@code TIMESTAMP} to a function as a
   * {@link Timestamp} whose local date and time are the value's own, so the value is formatted as
   * it is, in no time zone: what Flink does with a {@code TIMESTAMP} (not {@code TIMESTAMP_LTZ}).
   */
  public static String eval(Timestamp timestamp, String pattern) {
    return timestamp
        .toLocalDateTime()
        .format(PATTERNS.computeIfAbsent(pattern, DateTimeFormatter::ofPattern));
  }
}
