package dev.tidemark.pipelines.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.joda.time.Duration;
import org.joda.time.format.ISOPeriodFormat;

/**
 * Parses the durations of the command line: {@code 500ms}, {@code 5s}, {@code 1m}, {@code 2h},
 * {@code 1d} or ISO-8601 such as {@code PT5S}.
 */
public final class Durations {

  private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private Durations() {}

  /**
   * {@code text} as a duration of zero or more.
   *
   * @throws ConfigurationException naming {@code option}, the value, and what is expected
   */
  public static Duration parse(String option, String text) {
    String trimmed = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    Matcher shortForm = SHORT.matcher(trimmed);
    try {
      if (shortForm.matches()) {
        long amount = Long.parseLong(shortForm.group(1));
        switch (shortForm.group(2)) {
          case "ms":
            return Duration.millis(amount);
          case "s":
            return Duration.standardSeconds(amount);
          case "m":
            return Duration.standardMinutes(amount);
          case "h":
            return Duration.standardHours(amount);
          default:
            return Duration.standardDays(amount);
        }
      }
      if (trimmed.startsWith("p")) {
        Duration duration =
            ISOPeriodFormat.standard()
                .parsePeriod(trimmed.toUpperCase(Locale.ROOT))
                .toStandardDuration();
        if (duration.getMillis() >= 0) {
          return duration;
        }
      }
    } catch (ArithmeticException | IllegalArgumentException | UnsupportedOperationException e) {
      // Falls through to the one error message below.
    }
    throw new ConfigurationException(
        "--" + option + ": '" + text + "' is not a duration; use e.g. 5s, 500ms, 1m or PT5S");
  }
}
