package dev.tidemark.pipelines.config;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * How a source stamps and paces event time, from the command line: the out-of-orderness bound, the
 * idle timeout, the event-time gap after which a recorded partition stops holding the watermark
 * back, how far ahead of the wall clock an event time may be, where a Kafka source starts ({@code
 * earliest} or {@code latest}), and, for a recording of several partitions, the field that names
 * each record's partition (null: one partition).
 */
public record EventTimeSettings(
    Duration maxOutOfOrderness,
    Duration idleTimeout,
    Duration partitionIdleGap,
    Duration maxFutureSkew,
    String startFrom,
    @Nullable String partitionField) {

  /** The same settings, for a recording whose records name their partition in {@code field}. */
  public EventTimeSettings withPartitionField(@Nullable String field) {
    if (field != null && field.isBlank()) {
      throw new ConfigurationException(
          "--partitionField: an empty name is not a field; use e.g. --partitionField=partition");
    }
    return new EventTimeSettings(
        maxOutOfOrderness, idleTimeout, partitionIdleGap, maxFutureSkew, startFrom, field);
  }

  /**
   * Checks that no partition field was given to a live source, which knows its own inputs.
   *
   * @throws ConfigurationException if one was
   */
  public void requireNoPartitionField(String why) {
    if (partitionField != null) {
      throw new ConfigurationException("--partitionField: only for a recording; " + why);
    }
  }
}
