package dev.tidemark.pipelines.config;

import java.time.DateTimeException;
import java.time.ZoneId;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The time zone a pipeline's rows give their dates and times in: {@code metrics}' {@code
 * event_time_log}, and {@code sql}'s {@code TIMESTAMP} values, as Flink SQL's {@code
 * table.local-time-zone} gives them.
 */
public interface TimeZoneOptions extends PipelineOptions {
  @Description(
      "The time zone of the rows' dates and times (metrics' event_time_log, sql's TIMESTAMP"
          + " values and DATE_FORMAT), e.g. UTC or Asia/Shanghai")
  @Default.String("UTC")
  String getTimeZone();

  void setTimeZone(String value);

  /** The zone {@code --timeZone} names, looked up once: not once per result. */
  static ZoneId zoneOf(TimeZoneOptions options) {
    String timeZone = options.getTimeZone();
    try {
      return ZoneId.of(timeZone);
    } catch (DateTimeException | NullPointerException e) {
      throw new ConfigurationException(
          "--timeZone: '" + timeZone + "' is not a time zone; use e.g. UTC or Asia/Shanghai");
    }
  }
}
