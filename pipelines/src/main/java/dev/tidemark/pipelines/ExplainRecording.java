package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.explain.TimelineReport;
import dev.tidemark.pipelines.explain.TimelineText;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.replay.ReplayTimeline;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.options.Description;

/**
 * {@code explain}: what {@code count} does with a recording, window by window, worked out without
 * starting a job ({@link Replay#explain}): when each window closes and with what, each late record
 * and dead letter and why, and the settings the recording does not fit. Takes {@code count}'s
 * options; {@code --report=FILE.html} also draws it.
 */
public final class ExplainRecording {

  /** The options of {@code explain}: those of {@code count}, and the report. */
  public interface Options extends CountPipeline.Options {
    @Description("Also write the timeline as one self-contained HTML page to this file")
    String getReport();

    void setReport(String value);
  }

  private ExplainRecording() {}

  /** Explains the recording {@code options} name on {@code out}; returns the exit code. */
  public static int run(Options options, PrintStream out) {
    PerWindowCounts.Settings settings = CountPipeline.settings(options);
    ReplayTimeline timeline = timeline(settings, options.getSource());
    String title = "--source=" + options.getSource();
    TimelineText.write(timeline, title, settings.windowing(), out);
    if (options.getReport() != null) {
      Path report = Path.of(options.getReport());
      try {
        Files.writeString(
            report,
            TimelineReport.html(timeline, title, settings.windowing()),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("writing the report to " + report, e);
      }
      out.println("report: " + report.toAbsolutePath());
    }
    return 0;
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
