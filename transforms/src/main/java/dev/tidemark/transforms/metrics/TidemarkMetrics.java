package dev.tidemark.transforms.metrics;

import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.Metrics;

/**
 * Every Beam metric tidemark reports, named once: the transforms that update them and the tools
 * that read them (the run summary, tests, a user's dashboard) use these names, so a rename cannot
 * silently zero a reader.
 *
 * <p>Counters add up: {@code recordsIn = records counted in final panes + lateRecords +
 * deadLetters}; {@code resultsOut} counts the results handed on: each typed pane of the library's
 * own-type and SQL transforms, each row a pipeline's results sink writes. Gauges, per input (a
 * Kafka partition such as {@code orders-3}, or a recording such as {@code /data/orders.json}):
 * {@code watermark[input]} in epoch milliseconds and {@code activity[input]} (0 active, 1 idle, 2
 * empty); for a recording also {@code newestEventTime[input]} (epoch milliseconds), {@code
 * lag[input]} (milliseconds from the watermark to the newest event time) and {@code
 * recordsRead[input]}.
 */
public final class TidemarkMetrics {

  /** The namespace of every tidemark metric. */
  public static final String NAMESPACE = "tidemark";

  /** Records read and parsed, good or bad. */
  public static final String RECORDS_IN = "recordsIn";

  /** Results written: one per pane. */
  public static final String RESULTS_OUT = "resultsOut";

  /** Records whose window had expired when they arrived, captured in the late output. */
  public static final String LATE_RECORDS = "lateRecords";

  /**
   * Records of {@link #LATE_RECORDS} that missed only some of their windows (sliding and cumulating
   * windows) and are counted in the others, which were still open.
   */
  public static final String PARTLY_LATE_RECORDS = "partlyLateRecords";

  /**
   * Records that a query's {@code WHERE} filtered out: read and judged like every record, in no
   * row, never late.
   */
  public static final String FILTERED_RECORDS = "filteredRecords";

  /** Records that could not be used, in the dead-letter output with the reason. */
  public static final String DEAD_LETTERS = "deadLetters";

  /** Dead letters of a CSV read that look like JSON records, which {@code --format=json} reads. */
  public static final String LIKE_JSON = "deadLettersLikeJson";

  /** Dead letters of a JSON read that look like comma-separated lines, {@code --format=csv}'s. */
  public static final String LIKE_CSV = "deadLettersLikeCsv";

  private TidemarkMetrics() {}

  public static Counter recordsIn() {
    return Metrics.counter(NAMESPACE, RECORDS_IN);
  }

  public static Counter resultsOut() {
    return Metrics.counter(NAMESPACE, RESULTS_OUT);
  }

  public static Counter lateRecords() {
    return Metrics.counter(NAMESPACE, LATE_RECORDS);
  }

  public static Counter partlyLateRecords() {
    return Metrics.counter(NAMESPACE, PARTLY_LATE_RECORDS);
  }

  public static Counter filteredRecords() {
    return Metrics.counter(NAMESPACE, FILTERED_RECORDS);
  }

  public static Counter deadLetters() {
    return Metrics.counter(NAMESPACE, DEAD_LETTERS);
  }

  /**
   * Dead letters that look written in the format {@code format} names ({@code json} or {@code csv},
   * {@link dev.tidemark.transforms.parse.EventFormat#formatThatReads}), not in the one read.
   */
  public static Counter deadLettersLike(String format) {
    return Metrics.counter(NAMESPACE, format.equals("json") ? LIKE_JSON : LIKE_CSV);
  }

  /** The name of {@code input}'s watermark gauge, e.g. {@code watermark[orders-3]}. */
  public static String watermarkOf(Object input) {
    return "watermark[" + input + "]";
  }

  /** The name of {@code input}'s activity gauge, e.g. {@code activity[orders-3]}. */
  public static String activityOf(Object input) {
    return "activity[" + input + "]";
  }

  public static Gauge watermark(Object input) {
    return Metrics.gauge(NAMESPACE, watermarkOf(input));
  }

  public static Gauge activity(Object input) {
    return Metrics.gauge(NAMESPACE, activityOf(input));
  }

  /** {@code input}'s newest event time so far, in epoch milliseconds. */
  public static Gauge newestEventTime(Object input) {
    return Metrics.gauge(NAMESPACE, "newestEventTime[" + input + "]");
  }

  /** How far {@code input}'s watermark is behind its newest event time, in milliseconds. */
  public static Gauge lag(Object input) {
    return Metrics.gauge(NAMESPACE, "lag[" + input + "]");
  }

  /** How many records {@code input} has read. */
  public static Gauge recordsRead(Object input) {
    return Metrics.gauge(NAMESPACE, "recordsRead[" + input + "]");
  }
}
