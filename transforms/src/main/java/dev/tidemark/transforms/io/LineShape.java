package dev.tidemark.transforms.io;

import java.io.Serializable;

/**
 * How {@link GeneratedLines} writes one record: the input format of a pipeline. The built-in shapes
 * are scenario S1's CSV, S5's statistics and S4's orders and coupons.
 */
@FunctionalInterface
public interface LineShape extends Serializable {

  /** A line for the record number {@code sequence} of {@code key} at {@code eventTime}. */
  String line(String key, long eventTime, long sequence);

  /** {@code key,epochMillis}, like S1's {@code 01,1586489566000}. */
  LineShape CSV = (key, eventTime, sequence) -> key + "," + eventTime;

  /** S5's statistics: index {@code idx_KEY}, op alternating between es_sink and kafka_sink. */
  LineShape S5_STATS =
      (key, eventTime, sequence) ->
          "{\"t\":"
              + eventTime
              + ",\"st\":\"DIRECT\",\"i\":\"idx_"
              + key
              + "\",\"op\":\""
              + (sequence % 2 == 0 ? "es_sink" : "kafka_sink")
              + "\",\"id\":"
              + sequence
              + "}";

  /** S4's orders, batch {@code KEY}. */
  LineShape S4_ORDERS =
      (key, eventTime, sequence) ->
          "{\"orderId\":\"o"
              + sequence
              + "\",\"orderBatchId\":\""
              + key
              + "\",\"orderLastModifyTime\":"
              + eventTime
              + ",\"orderSalesmanId\":null}";

  /** S4's coupons, batch {@code KEY}. */
  LineShape S4_COUPONS =
      (key, eventTime, sequence) ->
          "{\"orderBatchId\":\""
              + key
              + "\",\"receiveUserId\":\"u"
              + sequence
              + "\",\"lastModifyTime\":"
              + eventTime
              + "}";
}
