package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.EventTimeOptions;
import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.config.RunnerSettings;
import dev.tidemark.pipelines.config.SourceOptions;
import dev.tidemark.pipelines.config.WindowKindOptions;
import dev.tidemark.pipelines.io.ColumnKind;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.PipelineInput;
import dev.tidemark.pipelines.io.SourceUri;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import dev.tidemark.pipelines.steps.FlinkBundles;
import dev.tidemark.pipelines.steps.JsonLines;
import dev.tidemark.pipelines.steps.PerWindowCounts;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.JsonEventFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.transforms.SerializableFunction;

/**
 * {@code count} (scenarios S1, S2, S3): per-key count, and optionally sum, in tumbling event-time
 * windows. One JSON line per pane: {@code key}, {@code windowStart}, {@code windowEnd}, {@code
 * count}, {@code sum} when asked, {@code timing} and {@code final}; late records and dead letters
 * to their own sinks.
 */
public final class CountPipeline {

  /** The options of {@code count}. */
  public interface Options extends SourceOptions, WindowKindOptions {
    @Description(
        "Size of the event-time windows: tumbling, unless --windowSlide or --windowStep is given")
    @Default.String("5s")
    String getWindowSize();

    void setWindowSize(String value);

    @Description("How far behind the newest event a record may arrive and still be on time")
    @Default.String("1s")
    String getMaxOutOfOrderness();

    void setMaxOutOfOrderness(String value);

    @Description("csv (key,epochMillis) or json (with --keyField and --timeField)")
    @Default.String("csv")
    String getFormat();

    void setFormat(String value);

    @Description("For --format=json: the field with the key")
    @Default.String("key")
    String getKeyField();

    void setKeyField(String value);

    @Description("For --format=json: the field with the event time, in epoch milliseconds")
    @Default.String("time")
    String getTimeField();

    void setTimeField(String value);

    @Description("For --format=json: a whole-number field to sum per key and window (optional)")
    String getSumField();

    void setSumField(String value);
  }

  private CountPipeline() {}

  /** Builds the pipeline; every option is parsed and checked before it is returned. */
  public static Pipeline build(Options options) {
    PerWindowCounts.Settings settings = settings(options);
    RunnerSettings.apply(
        options,
        settings.source().startsFromImpulse(),
        FlinkBundles.of(List.of(settings.source()), settings.sinks()));
    Pipeline pipeline = Pipeline.create(options);
    PerWindowCounts.assemble(
        pipeline,
        settings,
        json(options.getSumField() != null),
        JsonLines::windowKey,
        table(options.getSumField() != null));
    return pipeline;
  }

  /**
   * With {@code --report}, writes the recording's timeline as a page ({@link ExplainRecording});
   * the command line calls it before the run, never while the pipeline is built.
   */
  public static void writeReportIfAsked(Options options) {
    ExplainRecording.writeReportIfAsked(options, () -> settings(options));
  }

  /** The options as typed values, each parsed once. */
  static PerWindowCounts.Settings settings(Options options) {
    EventTimeSettings eventTime =
        EventTimeOptions.eventTime(options, options.getMaxOutOfOrderness())
            .withPartitionField(options.getPartitionField());
    return new PerWindowCounts.Settings(
        SourceUri.of(options, PipelineInput.COUNT),
        format(options),
        eventTime,
        EventTimeOptions.windowing(
            options, EventTimeOptions.windowKind(options, options.getWindowSize()), eventTime),
        OutputSinks.from(options));
  }

  /** A result's row in a table: its key and window keep one row of its count, and sum. */
  static TableLayout table(boolean withSum) {
    List<TableColumn> values = new ArrayList<>();
    values.add(TableColumn.of("count", ColumnKind.BIGINT));
    if (withSum) {
      values.add(TableColumn.of("sum", ColumnKind.BIGINT));
    }
    return TableLayout.panes(List.of(TableColumn.of("key", ColumnKind.TEXT)), values);
  }

  /** Each result as a JSON line, with its sum when {@code withSum}. */
  static SerializableFunction<WindowResult, String> json(boolean withSum) {
    return result -> json(result, withSum);
  }

  static String json(WindowResult result, boolean withSum) {
    return JsonLines.object(
        json -> {
          json.writeStringField("key", result.key().text());
          json.writeNumberField("count", result.count());
          if (withSum) {
            json.writeNumberField("sum", result.sum());
          }
          JsonLines.writePane(json, result.pane());
        });
  }

  private static EventFormat format(Options options) {
    String format = options.getFormat() == null ? "" : options.getFormat().toLowerCase(Locale.ROOT);
    switch (format) {
      case "csv":
        if (options.getSumField() != null) {
          throw new ConfigurationException(
              "--sumField: only --format=json has named fields; csv lines are key,epochMillis");
        }
        return CsvEventFormat.keyAndTime();
      case "json":
        JsonEventFormat json =
            JsonEventFormat.withKey(options.getKeyField()).withTime(options.getTimeField());
        return options.getSumField() == null ? json : json.withValue(options.getSumField());
      default:
        throw new ConfigurationException(
            "--format: '" + options.getFormat() + "' is not a format; use csv or json");
    }
  }
}
