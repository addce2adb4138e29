package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.SourceOptions;
import dev.tidemark.pipelines.explain.TimelineReport;
import dev.tidemark.pipelines.explain.TimelineText;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.replay.ReplayTimeline;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code explain}: what {@code count} does with a recording, window by window, worked out without
 * starting a job ({@link Replay#explain}): when each window closes and with what, each late record
 * and dead letter and why, and the settings the recording does not fit. Takes {@code count}'s
 * options; {@code --report=FILE.html} also draws it.
 */
public final class ExplainRecording {

  /** The options of {@code explain}: those of {@code count}, {@code --report} among them. */
  public interface Options extends CountPipeline.Options {}

  private ExplainRecording() {}

  /** Explains the recording {@code options} name on {@code out}; returns the exit code. */
  public static int run(Options options, PrintStream out) {
    PerWindowCounts.Settings settings = CountPipeline.settings(options);
    ReplayTimeline timeline =
        withParallelismWarning(timeline(settings, options.getSource()), options.getParallelism());
    String title = "--source=" + options.getSource();
    TimelineText.write(timeline, title, settings.windowing(), out);
    if (options.getReport() != null) {
      out.println("report: " + writeReport(timeline, title, settings, options.getReport()));
    }
    return 0;
  }

  /**
   * A partitioned recording read at a parallelism above its number of partitions: the readers
   * without a partition are S5's trap, and the user is told so.
   */
  private static ReplayTimeline withParallelismWarning(
      ReplayTimeline timeline, @Nullable Integer parallelism) {
    if (!timeline.isPartitioned()
        || parallelism == null
        || parallelism <= timeline.partitionCount()) {
      return timeline;
    }
    int partitions = timeline.partitionCount();
    return timeline.withWarning(
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
   * For {@code count} and {@code metrics} with {@code --report}: writes the recording's timeline
   * before the job runs; the job's results are the ones it shows ({@code
   * ExplainAgreesWithCountTest}).
   *
   * @throws ConfigurationException if the source is live
   */
  static void writeReportIfAsked(SourceOptions options, PerWindowCounts.Settings settings) {
    if (options.getReport() == null) {
      return;
    }
    if (settings.source().replay(settings.format(), settings.eventTime()).isEmpty()) {
      throw new ConfigurationException(
          "--report: only for a recording (file:PATH, sample: or generator:); '"
              + options.getSource()
              + "' is live");
    }
    writeReport(
        timeline(settings, options.getSource()),
        "--source=" + options.getSource(),
        settings,
        options.getReport());
  }

  private static Path writeReport(
      ReplayTimeline timeline, String title, PerWindowCounts.Settings settings, String file) {
    Path report = Path.of(file);
    try {
      Files.writeString(
          report,
          TimelineReport.html(timeline, title, settings.windowing()),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigurationException("--report: cannot write " + report + ": " + e.getMessage());
    }
    return report.toAbsolutePath();
  }

  /** What {@code count} with these options does with its recording. */
  static ReplayTimeline timeline(Options options) {
    return timeline(CountPipeline.settings(options), options.getSource());
  }

  private static ReplayTimeline timeline(PerWindowCounts.Settings settings, String source) {
    Replay replay =
        settings
            .source()
            .replay(settings.format(), settings.eventTime())
            .orElseThrow(
                () ->
                    new ConfigurationException(
                        "--source: explain replays a recording (file:PATH, sample: or generator:);"
                            + " '"
                            + source
                            + "' is live, so its timing cannot be known in advance"));
    return replay.explain(settings.windowing());
  }
}
