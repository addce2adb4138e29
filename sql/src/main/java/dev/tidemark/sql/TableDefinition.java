package dev.tidemark.sql;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.joda.time.Duration;

/**
 * What a Flink SQL {@code CREATE TABLE} says ({@link SqlTable#ofDdl}): the table a query reads, how
 * far its watermark lags the event time ({@code WATERMARK FOR rowtime AS rowtime - INTERVAL '2'
 * SECOND} is 2 s), and its {@code WITH} options, in their order, for the caller to map or refuse.
 *
 * @param table the table, its event time the watermark's column
 * @param watermarkDelay how far the watermark lags the event time
 * @param options the {@code WITH} options, key to value
 */
public record TableDefinition(
    SqlTable table, Duration watermarkDelay, Map<String, String> options) {

  public TableDefinition {
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }
}
