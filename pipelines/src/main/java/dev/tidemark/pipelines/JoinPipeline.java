package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.EventTimeOptions;
import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.config.KafkaClientProperties;
import dev.tidemark.pipelines.config.RecordLimits;
import dev.tidemark.pipelines.config.RunnerSettings;
import dev.tidemark.pipelines.config.TidemarkOptions;
import dev.tidemark.pipelines.io.ColumnKind;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.PaneRules;
import dev.tidemark.pipelines.io.PipelineInput;
import dev.tidemark.pipelines.io.Source;
import dev.tidemark.pipelines.io.SourceRead;
import dev.tidemark.pipelines.io.SourceUri;
import dev.tidemark.pipelines.io.TableColumn;
import dev.tidemark.pipelines.io.TableLayout;
import dev.tidemark.pipelines.steps.FlinkBundles;
import dev.tidemark.pipelines.steps.JsonLines;
import dev.tidemark.pipelines.steps.WriteOutputs;
import dev.tidemark.transforms.join.CopyJsonField;
import dev.tidemark.transforms.join.JoinSide;
import dev.tidemark.transforms.join.JoinedRecord;
import dev.tidemark.transforms.join.LeftJoinPerWindow;
import dev.tidemark.transforms.join.MergeRecords;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * {@code join} (scenario S4): orders {@code {"orderBatchId","orderLastModifyTime",...}} left-join
 * coupons {@code {"orderBatchId","receiveUserId","lastModifyTime"}} in tumbling windows; each order
 * is written once per pane with {@code orderSalesmanId} set to the newest coupon's {@code
 * receiveUserId}, or null, plus {@code windowStart}, {@code windowEnd}, {@code timing} and {@code
 * final}.
 */
public final class JoinPipeline {

  /** The options of {@code join}. */
  public interface Options extends TidemarkOptions {
    @Description("Where orders come from (same forms as count's --source; sample: is S4's orders)")
    @Default.String("sample:")
    String getOrders();

    void setOrders(String value);

    @Description(
        "Where coupons come from (same forms as count's --source; sample: is S4's coupons)")
    @Default.String("sample:")
    String getCoupons();

    void setCoupons(String value);

    @Description("Size of the tumbling event-time windows")
    @Default.String("5s")
    String getWindowSize();

    void setWindowSize(String value);

    @Description("How far behind the newest event a record may arrive and still be on time")
    @Default.String("5s")
    String getMaxOutOfOrderness();

    void setMaxOutOfOrderness(String value);
  }

  private static final JsonEventFormat ORDERS =
      JsonEventFormat.withKey("orderBatchId").withTime("orderLastModifyTime");
  private static final JsonEventFormat COUPONS =
      JsonEventFormat.withKey("orderBatchId").withTime("lastModifyTime");
  private static final MergeRecords MERGE =
      CopyJsonField.from("receiveUserId").into("orderSalesmanId");

  /**
   * A joined order's row in a table: an order's version (its id and last modification) in its
   * window is one row, with its batch and the matched coupon's salesman. Other fields of an order
   * are in the JSON lines only.
   */
  static final TableLayout TABLE =
      TableLayout.panes(
          List.of(
              TableColumn.ofField("orderId", ColumnKind.TEXT),
              TableColumn.ofField("orderLastModifyTime", ColumnKind.BIGINT)),
          List.of(
              TableColumn.ofField("orderBatchId", ColumnKind.TEXT),
              TableColumn.ofField("orderSalesmanId", ColumnKind.TEXT)));

  private JoinPipeline() {}

  /** Everything {@code join} is built from, parsed and checked. */
  record Settings(
      Source orders,
      Source coupons,
      EventTimeSettings eventTime,
      EventTimeWindowing windowing,
      OutputSinks sinks) {}

  /** Builds the pipeline; every option is parsed and checked before it is returned. */
  public static Pipeline build(Options options) {
    Settings settings = settings(options);
    RunnerSettings.apply(
        options,
        settings.orders().startsFromImpulse() || settings.coupons().startsFromImpulse(),
        FlinkBundles.of(List.of(settings.orders(), settings.coupons()), settings.sinks()));
    Pipeline pipeline = Pipeline.create(options);
    assemble(pipeline, settings);
    return pipeline;
  }

  /** The options as typed values, each parsed once. */
  static Settings settings(Options options) {
    EventTimeSettings eventTime =
        EventTimeOptions.eventTime(options, options.getMaxOutOfOrderness());
    return new Settings(
        SourceUri.parse(
            "orders",
            options.getOrders(),
            PipelineInput.ORDERS,
            RecordLimits.maxRecordBytes(options),
            KafkaClientProperties.from(options)),
        SourceUri.parse(
            "coupons",
            options.getCoupons(),
            PipelineInput.COUPONS,
            RecordLimits.maxRecordBytes(options),
            KafkaClientProperties.from(options)),
        eventTime,
        EventTimeOptions.windowing(options, options.getWindowSize(), eventTime),
        OutputSinks.from(options));
  }

  /** Adds the join to {@code pipeline}; parses nothing. */
  static void assemble(Pipeline pipeline, Settings settings) {
    Optional<Replay> orders = settings.orders().replay(ORDERS, settings.eventTime());
    Optional<Replay> coupons = settings.coupons().replay(COUPONS, settings.eventTime());
    boolean replayed = orders.isPresent() && coupons.isPresent();
    PaneRules.log(
        List.of(settings.orders(), settings.coupons()),
        replayed,
        settings.windowing(),
        settings.eventTime());
    PCollectionTuple joined =
        replayed
            ? pipeline.apply(
                "LeftJoinReplays",
                Replay.leftJoin(orders.get(), coupons.get(), settings.windowing(), MERGE))
            : joinLive(pipeline, settings);
    // A joined row has no key of its own: several left records share a (key, window).
    WriteOutputs.results(
        joined.get(LeftJoinPerWindow.JOINED),
        JoinPipeline::json,
        row -> null,
        row -> false,
        TABLE,
        settings.sinks());
    WriteOutputs.lateFollowingTheClient(
        "Orders", joined.get(LeftJoinPerWindow.LATE_LEFT), settings.sinks());
    WriteOutputs.late("Coupons", joined.get(LeftJoinPerWindow.LATE_RIGHT), settings.sinks());
    WriteOutputs.deadLetters(joined.get(ParseEvents.DEAD_LETTER), settings.sinks());
  }

  /**
   * The join with the live rules, when at least one side is live. A side that a source reads in
   * batches (Kafka) is parsed where the join gathers it, so that no step of its own stands between
   * the source and the join's shuffle; any other side is read and parsed by its source's transform.
   */
  private static PCollectionTuple joinLive(Pipeline pipeline, Settings settings) {
    List<PCollection<DeadLetter>> deadLetters = new ArrayList<>();
    JoinSide orders =
        side(pipeline, "ReadOrders", settings.orders(), ORDERS, settings, deadLetters);
    JoinSide coupons =
        side(pipeline, "ReadCoupons", settings.coupons(), COUPONS, settings, deadLetters);
    PCollectionTuple joined =
        pipeline.apply(
            "LeftJoin", LeftJoinPerWindow.ofSides(settings.windowing(), MERGE, orders, coupons));
    if (joined.has(LeftJoinPerWindow.REJECTED)) {
      deadLetters.add(joined.get(LeftJoinPerWindow.REJECTED));
    }
    return joined.and(
        ParseEvents.DEAD_LETTER,
        PCollectionList.of(deadLetters).apply("AllDeadLetters", Flatten.pCollections()));
  }

  /**
   * One side of the join, read from {@code source} by steps named {@code name}; the dead letters
   * its source's own parse gives, if it parses, are added to {@code deadLetters}.
   */
  private static JoinSide side(
      Pipeline pipeline,
      String name,
      Source source,
      JsonEventFormat format,
      Settings settings,
      List<PCollection<DeadLetter>> deadLetters) {
    SourceRead read = source.read(format, settings.eventTime());
    if (read instanceof SourceRead.Batches<?> batches) {
      return batchesSide(pipeline, name, batches);
    }
    PCollectionTuple parsed = pipeline.apply(name, read.events());
    deadLetters.add(parsed.get(ParseEvents.DEAD_LETTER));
    return JoinSide.events(parsed.get(ParseEvents.EVENTS));
  }

  private static <RecordT> JoinSide batchesSide(
      Pipeline pipeline, String name, SourceRead.Batches<RecordT> batches) {
    return JoinSide.batches(pipeline.apply(name, batches.batches()), batches.parser());
  }

  static String json(JoinedRecord joined) {
    return JsonLines.object(
        json -> {
          JsonLines.copyFields(joined.record(), json);
          JsonLines.writePane(json, joined.pane());
        });
  }
}
