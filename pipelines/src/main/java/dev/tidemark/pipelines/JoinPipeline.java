package dev.tidemark.pipelines;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tidemark.transforms.join.CopyJsonField;
import dev.tidemark.transforms.join.JoinedRecord;
import dev.tidemark.transforms.join.LeftJoinPerWindow;
import dev.tidemark.transforms.join.MergeRecords;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.Validation;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.joda.time.Duration;

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
    @Description("Where orders come from (same forms as count's --source)")
    @Validation.Required
    String getOrders();

    void setOrders(String value);

    @Description("Where coupons come from (same forms as count's --source)")
    @Validation.Required
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

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonEventFormat ORDERS =
      JsonEventFormat.withKey("orderBatchId").withTime("orderLastModifyTime");
  private static final JsonEventFormat COUPONS =
      JsonEventFormat.withKey("orderBatchId").withTime("lastModifyTime");
  private static final MergeRecords MERGE =
      CopyJsonField.from("receiveUserId").into("orderSalesmanId");

  private JoinPipeline() {}

  /** Builds the pipeline; every option is checked before it is returned. */
  static Pipeline build(Options options) {
    Source orders = SourceUri.parse("orders", options.getOrders());
    Source coupons = SourceUri.parse("coupons", options.getCoupons());
    SinkUri sink = SinkUri.parse("sink", options.getSink());
    SinkUri lateSink = SinkUri.parse("lateSink", options.getLateSink());
    SinkUri deadLetterSink = SinkUri.parse("deadLetterSink", options.getDeadLetterSink());
    Duration windowSize = Durations.parse("windowSize", options.getWindowSize());
    Duration maxOutOfOrderness =
        Durations.parse("maxOutOfOrderness", options.getMaxOutOfOrderness());
    EventTimeSettings settings = Plumbing.eventTimeSettings(maxOutOfOrderness, options);
    EventTimeWindowing windowing = Plumbing.windowing(windowSize, options);
    Plumbing.prepareRunner(options, orders.startsFromImpulse() || coupons.startsFromImpulse());

    Pipeline pipeline = Pipeline.create(options);
    PCollectionTuple joined =
        orders instanceof RecordedSource recordedOrders
                && coupons instanceof RecordedSource recordedCoupons
            ? pipeline.apply(
                "LeftJoinReplays",
                Replay.leftJoin(
                    recordedOrders.replay(ORDERS, settings),
                    recordedCoupons.replay(COUPONS, settings),
                    windowing,
                    MERGE))
            : joinLive(pipeline, orders, coupons, settings, windowing);
    joined
        .get(LeftJoinPerWindow.JOINED)
        .apply("ResultsToJson", ParDo.of(new Plumbing.ResultsToJsonFn<>(JoinPipeline::json)))
        .apply("WriteResults", sink.write());
    Plumbing.writeLate("Orders", joined.get(LeftJoinPerWindow.LATE_LEFT), lateSink);
    Plumbing.writeLate("Coupons", joined.get(LeftJoinPerWindow.LATE_RIGHT), lateSink);
    Plumbing.writeDeadLetters("", joined.get(ParseEvents.DEAD_LETTER), deadLetterSink);
    return pipeline;
  }

  /** The join with the live rules, when at least one side is live. */
  private static PCollectionTuple joinLive(
      Pipeline pipeline,
      Source orders,
      Source coupons,
      EventTimeSettings settings,
      EventTimeWindowing windowing) {
    PCollectionTuple parsedOrders = orders.read(pipeline, "Orders", ORDERS, settings);
    PCollectionTuple parsedCoupons = coupons.read(pipeline, "Coupons", COUPONS, settings);
    return PCollectionTuple.of(LeftJoinPerWindow.LEFT, parsedOrders.get(ParseEvents.EVENTS))
        .and(LeftJoinPerWindow.RIGHT, parsedCoupons.get(ParseEvents.EVENTS))
        .apply("LeftJoin", LeftJoinPerWindow.of(windowing, MERGE))
        .and(
            ParseEvents.DEAD_LETTER,
            PCollectionList.of(parsedOrders.get(ParseEvents.DEAD_LETTER))
                .and(parsedCoupons.get(ParseEvents.DEAD_LETTER))
                .apply("AllDeadLetters", Flatten.pCollections()));
  }

  static String json(JoinedRecord joined) {
    ObjectNode order;
    try {
      order = (ObjectNode) JSON.readTree(joined.record());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a joined order is not JSON: " + joined, e);
    }
    return JsonLines.text(JsonLines.withPane(order, joined.pane()));
  }
}
