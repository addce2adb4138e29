package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.List;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario S4's join: orders left-join coupons on {@code orderBatchId} in 5 s windows, the coupon's
 * {@code receiveUserId} copied into the order's {@code orderSalesmanId}. One TestStream carries
 * both inputs (prefixed "O|" and "C|"), so their order is exactly as written. DirectRunner only for
 * the cases that need {@code advanceProcessingTime} or late data; the on-time join on Flink is in
 * {@link LeftJoinPerWindowOnFlinkTest}.
 */
@ExtendWith(TestPipelineExtension.class)
class LeftJoinPerWindowTest {

  static final Instant BASE_TIME = new Instant(1_700_000_000_000L);
  static final Duration WINDOW = Duration.standardSeconds(5);
  private static final Duration IDLE_FLUSH = Duration.standardSeconds(10);
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(WINDOW)
          .withAllowedLateness(Duration.standardSeconds(5))
          .withIdleFlush(IDLE_FLUSH);

  static TimestampedValue<String> order(String id, String batch, long offsetMillis) {
    long time = BASE_TIME.getMillis() + offsetMillis;
    return TimestampedValue.of(
        "O|{\"orderId\":\""
            + id
            + "\",\"orderBatchId\":\""
            + batch
            + "\",\"orderLastModifyTime\":"
            + time
            + ",\"orderSalesmanId\":null}",
        new Instant(time));
  }

  static TimestampedValue<String> coupon(String batch, String user, long offsetMillis) {
    long time = BASE_TIME.getMillis() + offsetMillis;
    return TimestampedValue.of(
        "C|{\"orderBatchId\":\""
            + batch
            + "\",\"receiveUserId\":\""
            + user
            + "\",\"lastModifyTime\":"
            + time
            + "}",
        new Instant(time));
  }

  /**
   * Four orders in two windows and three coupons, all on time: o1 and o2 of batch b1 match u9, the
   * newer of b1's two coupons; o3 has none; o4 matches u3.
   */
  static final List<TimestampedValue<String>> ON_TIME_ORDERS_AND_COUPONS =
      List.of(
          order("o1", "b1", 100),
          order("o2", "b1", 200),
          order("o3", "b2", 300),
          order("o4", "b3", 6000),
          coupon("b1", "u7", 400),
          coupon("b1", "u9", 900),
          coupon("b3", "u3", 5500));

  /** "orderId->orderSalesmanId" of a joined order. */
  static String idAndSalesman(JoinedRecord joined) {
    String record = joined.record();
    String id = record.replaceAll(".*\"orderId\":\"([^\"]*)\".*", "$1");
    String salesman = record.replaceAll(".*\"orderSalesmanId\":(\"[^\"]*\"|null).*", "$1");
    return id + "->" + salesman.replace("\"", "");
  }

  static PCollectionTuple join(PCollection<String> lines, EventTimeWindowing windowing) {
    PCollection<Event> orders = parse(lines, "O|", "orderLastModifyTime");
    PCollection<Event> coupons = parse(lines, "C|", "lastModifyTime");
    return PCollectionTuple.of(LeftJoinPerWindow.LEFT, orders)
        .and(LeftJoinPerWindow.RIGHT, coupons)
        .apply(
            "Join",
            LeftJoinPerWindow.of(
                windowing, CopyJsonField.from("receiveUserId").into("orderSalesmanId")));
  }

  private static PCollection<Event> parse(
      PCollection<String> lines, String prefix, String timeField) {
    return lines
        .apply("Only" + prefix, Filter.by((String line) -> line.startsWith(prefix)))
        .apply(
            "Strip" + prefix,
            MapElements.into(TypeDescriptors.strings()).via(line -> line.substring(2)))
        .apply(
            "Parse" + prefix,
            ParseEvents.with(JsonEventFormat.withKey("orderBatchId").withTime(timeField)))
        .get(ParseEvents.EVENTS);
  }

  /**
   * Each joined order as "window pane orderId->orderSalesmanId", the window by its start in seconds
   * after {@link #BASE_TIME}: "0s ON_TIME#0 final o1->u9".
   */
  private static PCollection<String> panesAndSalesmen(PCollectionTuple joined) {
    return joined
        .get(LeftJoinPerWindow.JOINED)
        .apply(
            "PaneAndSalesman",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    (JoinedRecord record) -> {
                      WindowPane pane = record.pane();
                      return (pane.windowStart().getMillis() - BASE_TIME.getMillis()) / 1000
                          + "s "
                          + pane.timing()
                          + "#"
                          + pane.index()
                          + (pane.isFinal() ? " final " : " ")
                          + idAndSalesman(record);
                    }));
  }

  @Test
  void everyOrderOncePerPaneWithOrWithoutACoupon(TestPipeline p) {
    TestStream<String> stream =
        TestStream.create(StringUtf8Coder.of())
            .advanceWatermarkTo(BASE_TIME)
            .addElements(
                order("o1", "b1", 100),
                order("o2", "b1", 200),
                order("o3", "b2", 300),
                coupon("b1", "u7", 400),
                // (1) Two coupons for b1: the newer one wins; no order is duplicated.
                coupon("b1", "u9", 900))
            .advanceWatermarkToInfinity();
    PCollection<String> joined = panesAndSalesmen(join(p.apply(stream), WINDOWING));

    // (2) One pane: the watermark passes the window's end and its expiry at once.
    PAssert.that(joined)
        .containsInAnyOrder(
            "0s ON_TIME#0 final o1->u9",
            "0s ON_TIME#0 final o2->u9",
            "0s ON_TIME#0 final o3->null");
    p.run();
  }

  @Test
  void quietCouponsDoNotHoldTheOrdersBackForever(TestPipeline p) {
    TestStream<String> stream =
        TestStream.create(StringUtf8Coder.of())
            .advanceWatermarkTo(BASE_TIME)
            .addElements(order("o1", "b1", 100), order("o2", "b2", 200))
            // (1) The watermark is held inside the window (a quiet coupon stream holds it).
            .advanceWatermarkTo(BASE_TIME.plus(1000))
            // (2) The idle flush passes in processing time.
            .advanceProcessingTime(IDLE_FLUSH.plus(Duration.standardSeconds(1)))
            .advanceWatermarkToInfinity();
    PCollection<String> joined = panesAndSalesmen(join(p.apply(stream), WINDOWING));

    // (3) The orders came out, without a salesman, before the watermark closed the window, and
    // again when it did.
    PAssert.that(joined)
        .containsInAnyOrder(
            "0s EARLY#0 o1->null",
            "0s EARLY#0 o2->null",
            "0s ON_TIME#1 final o1->null",
            "0s ON_TIME#1 final o2->null");
    p.run();
  }

  @Test
  void lateOrdersAndCouponsAreCaptured(TestPipeline p) {
    Instant pastExpiry = BASE_TIME.plus(WINDOW).plus(WINDOWING.allowedLateness()).plus(1);
    TestStream<String> stream =
        TestStream.create(StringUtf8Coder.of())
            .advanceWatermarkTo(BASE_TIME)
            .addElements(order("o1", "b1", 100))
            .advanceWatermarkTo(pastExpiry)
            .addElements(order("o2", "b1", 200), coupon("b1", "u9", 300))
            .advanceWatermarkToInfinity();
    PCollectionTuple joined = join(p.apply(stream), WINDOWING);

    PAssert.that(panesAndSalesmen(joined)).containsInAnyOrder("0s ON_TIME#0 final o1->null");
    PAssert.that(
            joined
                .get(LeftJoinPerWindow.LATE_LEFT)
                .apply(
                    "LateOrderKeys",
                    MapElements.into(TypeDescriptors.strings())
                        .via(late -> late.value().key().text())))
        .containsInAnyOrder("b1");
    PAssert.that(
            joined
                .get(LeftJoinPerWindow.LATE_RIGHT)
                .apply(
                    "LateCouponKeys",
                    MapElements.into(TypeDescriptors.strings())
                        .via(late -> late.value().key().text())))
        .containsInAnyOrder("b1");
    p.run();
  }
}
