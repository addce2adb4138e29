package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.EventTimeOptions;
import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.config.NearestName;
import dev.tidemark.pipelines.config.QueryOptions;
import dev.tidemark.pipelines.config.RunnerSettings;
import dev.tidemark.pipelines.config.SourceOptions;
import dev.tidemark.pipelines.config.TimeZoneOptions;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.PipelineInput;
import dev.tidemark.pipelines.io.Source;
import dev.tidemark.pipelines.io.SourceUri;
import dev.tidemark.pipelines.sql.QueryOfSource;
import dev.tidemark.pipelines.sql.QueryPlans;
import dev.tidemark.pipelines.sql.QueryTable;
import dev.tidemark.pipelines.sql.SqlResultsFn;
import dev.tidemark.pipelines.steps.FlinkBundles;
import dev.tidemark.pipelines.steps.PerWindowCounts;
import dev.tidemark.pipelines.steps.WriteOutputs;
import dev.tidemark.sql.InvalidQueryException;
import dev.tidemark.sql.SqlRecordFormat;
import dev.tidemark.sql.SqlTable;
import dev.tidemark.sql.WindowedQuery;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code sql}: a windowed SQL query of the user's own over their JSON or CSV records, run on
 * tidemark's pane engine, so its windows fire on idle input, its late rows are kept with their
 * window and watermark, and a record that does not fit the schema is a dead letter with the reason.
 * By default it runs S5's query, word for word, over S5's sample. One JSON line per pane: the
 * query's columns, then {@code timing}, {@code pane} and {@code final}.
 */
public final class SqlPipeline {

  /** S5's query, as the story wrote it for Flink SQL. */
  static final String S5_QUERY =
      "select i as index_name, DATE_FORMAT(TUMBLE_END(rowtime, INTERVAL '1' SECOND),"
          + " 'yyyy-MM-dd HH:mm:ss') as event_time_log, op as op_type, count(op) as count_result"
          + " from _source_table group by TUMBLE(rowtime, INTERVAL '1' SECOND), i, op";

  /** The options of {@code sql}. */
  public interface Options extends SourceOptions, QueryOptions {
    @Description(
        "The query: SELECT ... GROUP BY TUMBLE(rowtime, INTERVAL ...), or @FILE to read it from"
            + " a file")
    @Default.String(S5_QUERY)
    String getQuery();

    void setQuery(String value);

    @Description("json (an object per record) or csv (the columns in the schema's order)")
    @Default.String("json")
    String getFormat();

    void setFormat(String value);

    @Description("How far behind the newest event a record may arrive and still be on time")
    @Default.String("2s")
    String getMaxOutOfOrderness();

    void setMaxOutOfOrderness(String value);
  }

  /** Everything the pipeline is built from, parsed and checked. */
  record Settings(
      Source source,
      SqlRecordFormat format,
      EventTimeSettings eventTime,
      EventTimeWindowing windowing,
      OutputSinks sinks) {

    /**
     * The same records, windows and rules as {@code count} sees them, for {@code explain}: which
     * records a window's panes hold, late and dead is the same for any aggregate of them.
     */
    PerWindowCounts.Settings asCounts() {
      return new PerWindowCounts.Settings(source, format, eventTime, windowing, sinks);
    }
  }

  private SqlPipeline() {}

  /** Builds the pipeline; the query is planned and every option checked before it is returned. */
  public static Pipeline build(Options options) {
    return build(options, QueryPlans.NONE);
  }

  /** Builds the pipeline, with its query planned by {@code plans}. */
  public static Pipeline build(Options options, QueryPlans plans) {
    Settings settings = settings(options, plans);
    RunnerSettings.apply(
        options,
        settings.source().startsFromImpulse(),
        FlinkBundles.of(List.of(settings.source()), settings.sinks()));
    Pipeline pipeline = Pipeline.create(options);
    WindowedQuery query = settings.format().query();
    PCollectionTuple decided =
        pipeline.apply(
            "RunQuery",
            new QueryOfSource(
                settings.source(), settings.format(), settings.eventTime(), settings.windowing()));
    PCollection<KV<KV<String, Boolean>, String>> rows =
        decided
            .get(QueryOfSource.PANES)
            .apply("SelectAndHaving", ParDo.of(new SqlResultsFn(query)))
            .setCoder(
                KvCoder.of(
                    KvCoder.of(StringUtf8Coder.of(), BooleanCoder.of()), StringUtf8Coder.of()));
    WriteOutputs.results(
        rows,
        KV::getValue,
        row -> row.getKey().getKey(),
        row -> row.getKey().getValue(),
        QueryTable.of(query),
        settings.sinks());
    WriteOutputs.lateFollowingTheClient("", decided.get(CountPerWindow.LATE), settings.sinks());
    WriteOutputs.deadLetters(decided.get(ParseEvents.DEAD_LETTER), settings.sinks());
    return pipeline;
  }

  /**
   * With {@code --report}, writes what the query does with its recording, window by window, as a
   * page ({@link ExplainRecording}); the command line calls it before the run.
   */
  public static void writeReportIfAsked(Options options) {
    ExplainRecording.writeReportIfAsked(options, () -> settings(options).asCounts());
  }

  /** The options as typed values, the query planned. */
  static Settings settings(Options options) {
    return settings(options, QueryPlans.NONE);
  }

  private static Settings settings(Options options, QueryPlans plans) {
    // First: a table definition sets the format, the out-of-orderness and the source.
    WindowedQuery query = query(options, plans);
    EventTimeSettings eventTime =
        EventTimeOptions.eventTime(options, options.getMaxOutOfOrderness())
            .withPartitionField(options.getPartitionField());
    return new Settings(
        SourceUri.of(options, PipelineInput.METRICS),
        SqlRecordFormat.of(query, shape(options.getFormat())),
        eventTime,
        EventTimeOptions.windowing(options, query.windows(), eventTime),
        OutputSinks.from(options));
  }

  /**
   * The query planned by {@code plans}, from all it is planned from: the query's text, the table's
   * name, schema and event time or the text of its definition, and the time zone.
   */
  private static WindowedQuery query(Options options, QueryPlans plans) {
    String text = textOf("--query", options.getQuery());
    ZoneId zone = TimeZoneOptions.zoneOf(options);
    // A table definition also sets options, so it is read on every run; --schema only to plan: a
    // saved plan holds the table it was planned over.
    @Nullable String ddl = options.getDdl() == null ? null : textOf("--ddl", options.getDdl());
    @Nullable SqlTable defined = ddl == null ? null : TableDdl.apply(options, ddl);
    String inputs =
        String.join(
            "\n",
            "table " + options.getTable(),
            "schema " + options.getSchema(),
            "eventTime " + options.getEventTime(),
            "ddl " + ddl,
            "timeZone " + zone.getId(),
            "query " + text);
    return plans.plan(
        inputs,
        () -> planNow(options, defined != null ? defined : declaredTable(options), zone, text));
  }

  /** The table {@code --table}, {@code --schema} and {@code --eventTime} declare. */
  private static SqlTable declaredTable(Options options) {
    try {
      return SqlTable.of(options.getTable(), options.getSchema(), options.getEventTime());
    } catch (InvalidQueryException e) {
      String option = e.unknownColumn() != null ? "--eventTime" : "--schema";
      throw new ConfigurationException(option + ": " + e.getMessage() + didYouMean(e));
    }
  }

  private static WindowedQuery planNow(Options options, SqlTable table, ZoneId zone, String text) {
    try {
      return WindowedQuery.plan(table.withTimeZone(zone), text);
    } catch (InvalidQueryException e) {
      if (text.equals(S5_QUERY)
          && (options.getDdl() != null || !options.getSchema().equals(QueryOptions.S5_SCHEMA))) {
        throw new ConfigurationException(
            (options.getDdl() != null ? "--ddl" : "--schema")
                + " is given without --query, and the default query, S5's over the columns"
                + " t, i and op, does not fit it; give --query with your own");
      }
      throw new ConfigurationException("--query: " + e.getMessage() + didYouMean(e));
    }
  }

  /** For an unknown column: the columns there are, and the one most likely meant. */
  private static String didYouMean(InvalidQueryException e) {
    if (e.unknownColumn() == null) {
      return "";
    }
    String nearest = NearestName.among(e.columns(), e.unknownColumn());
    return "; the columns are "
        + String.join(", ", e.columns())
        + (nearest == null ? "" : "; did you mean '" + nearest + "'?");
  }

  /** The text of {@code option}, or the text of the file {@code @FILE} names. */
  static String textOf(String option, String value) {
    if (value == null || value.isBlank()) {
      throw new ConfigurationException(option + ": give it, or @FILE to read it from a file");
    }
    if (!value.startsWith("@")) {
      return value;
    }
    Path file = Path.of(value.substring(1));
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigurationException(option + ": cannot read " + file + ": " + e.getMessage());
    }
  }

  private static SqlRecordFormat.Shape shape(String format) {
    String value = format == null ? "" : format.toLowerCase(Locale.ROOT);
    return switch (value) {
      case "json" -> SqlRecordFormat.Shape.JSON;
      case "csv" -> SqlRecordFormat.Shape.CSV;
      default ->
          throw new ConfigurationException(
              "--format: '" + format + "' is not a format; use json or csv");
    };
  }
}
