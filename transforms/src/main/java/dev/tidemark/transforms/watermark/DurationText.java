package dev.tidemark.transforms.watermark;

import org.joda.time.Duration;

/** Durations as people write them: in reasons ({@link #describe}) and as option values. */
public final class DurationText {

  private DurationText() {}

  /** For a sentence: "74 years", "3 h 20 min", "100 s", "250 ms". */
  public static String describe(Duration duration) {
    long millis = duration.getMillis();
    long days = duration.getStandardDays();
    if (days >= 365) {
      return (days / 365) + " years";
    }
    if (days >= 1) {
      return days + " days";
    }
    long hours = duration.getStandardHours();
    if (hours >= 1) {
      return hours + " h " + (duration.getStandardMinutes() % 60) + " min";
    }
    long minutes = duration.getStandardMinutes();
    if (minutes >= 1) {
      return minutes + " min " + (duration.getStandardSeconds() % 60) + " s";
    }
    return millis >= 1000 ? duration.getStandardSeconds() + " s" : millis + " ms";
  }

  /** As an option's value, exactly: "2s", "90s", "1m", "2h", "250ms". */
  public static String asOption(Duration duration) {
    long millis = duration.getMillis();
    if (millis % 1000 != 0) {
      return millis + "ms";
    }
    long seconds = millis / 1000;
    if (seconds < 60 || seconds % 60 != 0) {
      return seconds + "s";
    }
    return seconds % 3600 == 0 ? seconds / 3600 + "h" : seconds / 60 + "m";
  }
}
