package dev.tidemark.pipelines.config;

import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Parses the event-time options every pipeline shares, each once, into the values the pipelines are
 * built from: {@link EventTimeSettings} for sources, {@link EventTimeWindowing} for windows.
 */
public final class EventTimeOptions {

  private EventTimeOptions() {}

  /**
   * How sources stamp event time: {@code maxOutOfOrderness} is the pipeline's own option, the rest
   * comes from the shared ones.
   *
   * @throws ConfigurationException naming the option that is wrong
   */
  public static EventTimeSettings eventTime(TidemarkOptions options, String maxOutOfOrderness) {
    Duration idleTimeout = positive("idleTimeout", options.getIdleTimeout());
    return new EventTimeSettings(
        Durations.parse("maxOutOfOrderness", maxOutOfOrderness),
        idleTimeout,
        orDefault("partitionIdleGap", options.getPartitionIdleGap(), idleTimeout),
        Durations.parse("maxFutureSkew", options.getMaxFutureSkew()),
        startFrom(options.getStartFrom()),
        null);
  }

  private static String startFrom(String startFrom) {
    String value = startFrom == null ? "" : startFrom.trim().toLowerCase(Locale.ROOT);
    if (!value.equals("earliest") && !value.equals("latest") && !value.equals("committed")) {
      throw new ConfigurationException(
          "--startFrom: '"
              + startFrom
              + "' is not a start position; use earliest, latest or committed");
    }
    return value;
  }

  /**
   * The windowing preset: windows of {@code windowSize}, the shared allowed lateness, an idle flush
   * after the same idle timeout the sources use, and every pane or only the final one ({@code
   * --emit}).
   *
   * @throws ConfigurationException naming the option that is wrong
   */
  public static EventTimeWindowing windowing(
      TidemarkOptions options, String windowSize, EventTimeSettings eventTime) {
    return windowing(options, windowKind(windowSize, null, null), eventTime);
  }

  /**
   * The windows of {@code --windowSize}: tumbling, or sliding every {@code windowSlide}, or
   * cumulating by {@code windowStep}, with no lateness yet ({@link #windowing(TidemarkOptions,
   * EventTimeWindowing, EventTimeSettings)} adds the rest).
   *
   * @throws ConfigurationException naming the option that is wrong, or the two that contradict each
   *     other
   */
  public static EventTimeWindowing windowKind(WindowKindOptions options, String windowSize) {
    if (options.getSessionGap() != null) {
      for (String other : new String[] {options.getWindowSlide(), options.getWindowStep()}) {
        if (other != null) {
          throw new ConfigurationException(
              "--sessionGap and --"
                  + (other.equals(options.getWindowSlide()) ? "windowSlide" : "windowStep")
                  + " contradict each other: sessions have no slide or step; give one");
        }
      }
      return EventTimeWindowing.sessions(positive("sessionGap", options.getSessionGap()));
    }
    return windowKind(windowSize, options.getWindowSlide(), options.getWindowStep());
  }

  /**
   * The windows of {@code --windowSize}: tumbling, or sliding every {@code windowSlide}, or
   * cumulating by {@code windowStep}.
   *
   * @throws ConfigurationException naming the option that is wrong, or the two that contradict each
   *     other
   */
  public static EventTimeWindowing windowKind(
      String windowSize, @Nullable String windowSlide, @Nullable String windowStep) {
    Duration size = positive("windowSize", windowSize);
    if (windowSlide != null && windowStep != null) {
      throw new ConfigurationException(
          "--windowSlide and --windowStep contradict each other: windows either slide"
              + " (--windowSlide) or grow in steps (--windowStep); give one");
    }
    if (windowSlide != null) {
      Duration slide = positive("windowSlide", windowSlide);
      if (slide.isLongerThan(size)) {
        throw new ConfigurationException(
            "--windowSlide: "
                + windowSlide
                + " is longer than --windowSize="
                + windowSize
                + "; use a slide of at most the size, or records between windows belong to none");
      }
      return EventTimeWindowing.sliding(size, slide);
    }
    if (windowStep != null) {
      Duration step = positive("windowStep", windowStep);
      if (size.getMillis() % step.getMillis() != 0) {
        throw new ConfigurationException(
            "--windowStep: --windowSize="
                + windowSize
                + " is not a whole number of steps of "
                + windowStep
                + "; use a step that divides the size");
      }
      return EventTimeWindowing.cumulating(step, size);
    }
    return EventTimeWindowing.fixed(size);
  }

  /**
   * The windowing preset: {@code kind}'s windows, the shared allowed lateness, an idle flush after
   * the same idle timeout the sources use, and every pane or only the final one ({@code --emit}).
   *
   * @throws ConfigurationException naming the option that is wrong
   */
  public static EventTimeWindowing windowing(
      TidemarkOptions options, EventTimeWindowing kind, EventTimeSettings eventTime) {
    EventTimeWindowing windowing =
        kind.withAllowedLateness(Durations.parse("allowedLateness", options.getAllowedLateness()))
            .withIdleFlush(orDefault("idleFlush", options.getIdleFlush(), eventTime.idleTimeout()));
    return finalPaneOnly(options.getEmit()) ? windowing.withFinalPaneOnly() : windowing;
  }

  /** A positive duration option. */
  private static Duration positive(String option, String value) {
    Duration duration = Durations.parse(option, value);
    if (duration.getMillis() == 0) {
      throw new ConfigurationException("--" + option + ": 0 is not allowed; use e.g. 10s");
    }
    return duration;
  }

  /** A positive duration option that, when not given, is {@code otherwise}. */
  private static Duration orDefault(String option, @Nullable String value, Duration otherwise) {
    return value == null ? otherwise : positive(option, value);
  }

  private static boolean finalPaneOnly(String emit) {
    String value = emit == null ? "" : emit.trim().toLowerCase(Locale.ROOT);
    if (!value.equals("all") && !value.equals("final")) {
      throw new ConfigurationException(
          "--emit: '" + emit + "' is not a choice of panes; use all or final");
    }
    return value.equals("final");
  }
}
