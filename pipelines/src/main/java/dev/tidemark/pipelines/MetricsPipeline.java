package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.EventTimeOptions;
import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.config.RunnerSettings;
import dev.tidemark.pipelines.config.SourceOptions;
import dev.tidemark.pipelines.config.TimeZoneOptions;
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
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.JsonEventFormat;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/**
 * {@code metrics} (scenario S5): records {@code {"t":...,"i":...,"op":...}} counted per ({@code i},
 * {@code op}) in 1 s windows, written as {@code
 * {"index_name","event_time_log","op_type","count_result","timing","pane","final"}} with {@code
 * event_time_log} the window's end as {@code yyyy-MM-dd HH:mm:ss} — the SQL of S5: {@code SELECT i
 * AS index_name, DATE_FORMAT(TUMBLE_END(rowtime, INTERVAL '1' SECOND), 'yyyy-MM-dd HH:mm:ss') AS
 * event_time_log, op AS op_type, COUNT(op) AS count_result ... GROUP BY TUMBLE(rowtime, INTERVAL
 * '1' SECOND), i, op}.
 */
public final class MetricsPipeline {

  /** The options of {@code metrics}. */
  public interface Options extends SourceOptions, TimeZoneOptions, WindowKindOptions {
    @Description(
        "Size of the event-time windows: tumbling, unless --windowSlide or --windowStep is given")
    @Default.String("1s")
    String getWindowSize();

    void setWindowSize(String value);

    @Description("How far behind the newest event a record may arrive and still be on time")
    @Default.String("2s")
    String getMaxOutOfOrderness();

    void setMaxOutOfOrderness(String value);
  }

  /** S5's records: key (i, op), event time t. */
  static final JsonEventFormat FORMAT = JsonEventFormat.withKey("i", "op").withTime("t");

  /** The format of event_time_log, parsed once: each result gives it its time zone. */
  private static final DateTimeFormatter EVENT_TIME_LOG =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private MetricsPipeline() {}

  /** S5's row in a table: its index and op, and its window, keep one row of its count. */
  static final TableLayout TABLE =
      TableLayout.panes(
          List.of(
              TableColumn.of("index_name", ColumnKind.TEXT),
              TableColumn.of("op_type", ColumnKind.TEXT)),
          List.of(
              TableColumn.of("event_time_log", ColumnKind.TEXT),
              TableColumn.of("count_result", ColumnKind.BIGINT)));

  /** Builds the pipeline; every option is parsed and checked before it is returned. */
  public static Pipeline build(Options options) {
    ZoneId timeZone = TimeZoneOptions.zoneOf(options);
    PerWindowCounts.Settings settings = settings(options);
    RunnerSettings.apply(
        options,
        settings.source().startsFromImpulse(),
        FlinkBundles.of(List.of(settings.source()), settings.sinks()));
    Pipeline pipeline = Pipeline.create(options);
    PerWindowCounts.assemble(
        pipeline, settings, result -> json(result, timeZone), MetricsPipeline::windowKey, TABLE);
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
        SourceUri.of(options, PipelineInput.METRICS),
        FORMAT,
        eventTime,
        EventTimeOptions.windowing(
            options, EventTimeOptions.windowKind(options, options.getWindowSize()), eventTime),
        OutputSinks.from(options));
  }

  static String json(WindowResult result, ZoneId timeZone) {
    EventKey key = indexAndOp(result);
    String indexName = key.part(0);
    String opType = key.part(1);
    String eventTimeLog =
        EVENT_TIME_LOG
            .withZone(timeZone)
            .format(java.time.Instant.ofEpochMilli(result.pane().windowEnd().getMillis()));
    return JsonLines.object(
        json -> {
          json.writeStringField("index_name", indexName);
          json.writeStringField("event_time_log", eventTimeLog);
          json.writeStringField("op_type", opType);
          json.writeNumberField("count_result", result.count());
          // After S5's own fields: which pane this is, so a consumer keeps the latest row.
          JsonLines.writeTiming(json, result.pane());
        });
  }

  /** A result's record key: its index, op and window, the same for every pane of the window. */
  static String windowKey(WindowResult result) {
    EventKey key = indexAndOp(result);
    return JsonLines.object(
        json -> {
          json.writeStringField("index_name", key.part(0));
          json.writeStringField("op_type", key.part(1));
          json.writeNumberField("windowStart", result.pane().windowStart().getMillis());
          json.writeNumberField("windowEnd", result.pane().windowEnd().getMillis());
        });
  }

  /** The {@code i} and {@code op} of a result: the two parts of its key. */
  private static EventKey indexAndOp(WindowResult result) {
    if (result.key().size() != 2) {
      throw new IllegalStateException("the key of a metrics result is not (i, op): " + result);
    }
    return result.key();
  }
}
