package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.QueryOptions;
import dev.tidemark.pipelines.config.SourceOptions;
import dev.tidemark.pipelines.explain.TimelineReport;
import dev.tidemark.pipelines.explain.TimelineText;
import dev.tidemark.pipelines.explain.WarningText;
import dev.tidemark.pipelines.io.KafkaSource;
import dev.tidemark.pipelines.steps.PerWindowCounts;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.replay.ReplayTimeline;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * {@code explain}: what {@code count} does with a recording, window by window, worked out without
 * starting a job ({@link Replay#explain}): when each window closes and with what, each late record
 * and dead letter and why, and the settings the recording does not fit. Takes {@code count}'s
 * options, or, with {@code --query}, {@code sql}'s, with {@code sql}'s defaults, and then explains
 * what {@code sql} does; {@code --report=FILE.html} also draws it. On {@code kafka://} it explains
 * a snapshot of the topic under the live rule ({@link KafkaSource#snapshot}), without stopping the
 * job that reads it or touching its consumer group.
 */
public final class ExplainRecording {

  /**
   * The options of {@code explain}: those of {@code count}, {@code --report} among them, and for a
   * Kafka topic the range of Kafka timestamps to explain.
   */
  public interface Options extends CountPipeline.Options, QueryOptions {
    @Description(
        "For kafka://: only the records with a Kafka timestamp at or after this instant, e.g."
            + " 2024-05-01T01:00:00Z or epoch milliseconds")
    String getFrom();

    void setFrom(String value);

    @Description(
        "For kafka://: only the records with a Kafka timestamp before this instant, e.g."
            + " 2024-05-01T02:00:00Z or epoch milliseconds")
    String getTo();

    void setTo(String value);

    @Description(
        "The query: SELECT ... GROUP BY TUMBLE(rowtime, INTERVAL ...), or @FILE to read it from"
            + " a file")
    String getQuery();

    void setQuery(String value);
  }

  private ExplainRecording() {}

  /**
   * Explains the recording {@code options} name on {@code out}; returns the exit code. With {@code
   * --query}, {@code args} are read as {@code sql} reads them, with its defaults.
   */
  public static int run(Options options, String[] args, PrintStream out) {
    PerWindowCounts.Settings settings = settings(options, args);
    Explained explained = explained(settings, options);
    ReplayTimeline timeline = explained.replay().explain(settings.windowing(), Instant.now());
    List<String> warnings = new ArrayList<>(WarningText.of(timeline));
    parallelismWarning(timeline, options.getParallelism()).ifPresent(warnings::add);
    String title = "--source=" + options.getSource();
    TimelineText.write(timeline, warnings, title, explained.about(), settings.windowing(), out);
    if (options.getReport() != null) {
      out.println(
          "report: " + writeReport(timeline, warnings, title, settings, options.getReport()));
    }
    return 0;
  }

  /**
   * What {@code count} with these options (or {@code sql}, with {@code --query}) does with its
   * recording, or with a topic's snapshot.
   */
  public static ReplayTimeline timeline(Options options, String... args) {
    PerWindowCounts.Settings settings = settings(options, args);
    return explained(settings, options).replay().explain(settings.windowing(), Instant.now());
  }

  /** {@code count}'s settings, or with {@code --query} {@code sql}'s, from the same arguments. */
  private static PerWindowCounts.Settings settings(Options options, String[] args) {
    if (options.getQuery() == null) {
      return CountPipeline.settings(options);
    }
    return SqlPipeline.settings(PipelineOptionsFactory.fromArgs(args).as(SqlPipeline.Options.class))
        .asCounts();
  }

  /** The records to explain, and what the explanation says about them first. */
  private record Explained(Replay replay, List<String> about) {}

  private static Explained explained(PerWindowCounts.Settings settings, Options options) {
    Instant from = instantOrNull("from", options.getFrom());
    Instant to = instantOrNull("to", options.getTo());
    if (settings.source() instanceof KafkaSource kafka) {
      if (from != null && to != null && !from.isBefore(to)) {
        throw new ConfigurationException(
            "--to: " + to + " is not after --from=" + from + "; the range would be empty");
      }
      KafkaSource.Snapshot snapshot =
          kafka.snapshot(settings.format(), settings.eventTime(), from, to);
      return new Explained(snapshot.replay(), snapshot.about());
    }
    if (from != null || to != null) {
      throw new ConfigurationException(
          (from != null ? "--from" : "--to")
              + ": only for a kafka:// source, whose records have Kafka timestamps; a recording is"
              + " explained whole");
    }
    return new Explained(recording(settings, options.getSource()), List.of());
  }

  /** {@code value} as an instant: ISO-8601 or epoch milliseconds; null when not given. */
  private static @Nullable Instant instantOrNull(String option, @Nullable String value) {
    if (value == null) {
      return null;
    }
    try {
      return value.matches("-?\\d+") ? new Instant(Long.parseLong(value)) : Instant.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(
          "--"
              + option
              + ": '"
              + value
              + "' is not an instant; use e.g. 2024-05-01T01:00:00Z or epoch milliseconds");
    }
  }

  /**
   * A partitioned recording read at a parallelism above its number of partitions: the readers
   * without a partition are S5's trap, and the user is told so.
   */
  private static Optional<String> parallelismWarning(
      ReplayTimeline timeline, @Nullable Integer parallelism) {
    if (!timeline.isPartitioned()
        || parallelism == null
        || parallelism <= timeline.partitionCount()) {
      return Optional.empty();
    }
    int partitions = timeline.partitionCount();
    return Optional.of(
        "--parallelism="
            + parallelism
            + " is more than the "
            + partitions
            + " partitions the recording shows: "
            + (parallelism - partitions)
            + " of the readers get no partition; a plain Flink Kafka source keeps their watermark"
            + " at its minimum and no window fires; tidemark lets a reader without a partition"
            + " follow the others, and --parallelism="
            + partitions
            + " does the same work with fewer slots");
  }

  /**
   * For {@code count}, {@code metrics} and {@code sql} with {@code --report}: writes the
   * recording's timeline before the job runs; the job's results are the ones it shows ({@code
   * ExplainAgreesWithCountTest}). The settings are made only then: for {@code sql} they plan the
   * query, which takes a second.
   *
   * @throws ConfigurationException if the source is live
   */
  public static void writeReportIfAsked(
      SourceOptions options, Supplier<PerWindowCounts.Settings> settingsOfTheRun) {
    if (options.getReport() == null) {
      return;
    }
    PerWindowCounts.Settings settings = settingsOfTheRun.get();
    if (settings.source().replay(settings.format(), settings.eventTime()).isEmpty()) {
      throw new ConfigurationException(
          "--report: only for a recording (file:PATH, sample: or generator:); '"
              + options.getSource()
              + "' is live");
    }
    ReplayTimeline timeline = timeline(settings, options.getSource());
    writeReport(
        timeline,
        WarningText.of(timeline),
        "--source=" + options.getSource(),
        settings,
        options.getReport());
  }

  private static Path writeReport(
      ReplayTimeline timeline,
      List<String> warnings,
      String title,
      PerWindowCounts.Settings settings,
      String file) {
    Path report = Path.of(file);
    try {
      Files.writeString(
          report,
          TimelineReport.html(timeline, warnings, title, settings.windowing()),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigurationException("--report: cannot write " + report + ": " + e.getMessage());
    }
    return report.toAbsolutePath();
  }

  private static ReplayTimeline timeline(PerWindowCounts.Settings settings, String source) {
    return recording(settings, source).explain(settings.windowing(), Instant.now());
  }

  private static Replay recording(PerWindowCounts.Settings settings, String source) {
    return settings
        .source()
        .replay(settings.format(), settings.eventTime())
        .orElseThrow(
            () ->
                new ConfigurationException(
                    "--source: explain replays a recording (file:PATH, sample: or generator:) or"
                        + " a snapshot of a Kafka topic (kafka://HOST:PORT/TOPIC); '"
                        + source
                        + "' is live, and cannot be read again"));
  }
}
