package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import java.io.Serializable;
import java.util.function.Consumer;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * One record's parse as {@link ParseRecords} does it, counted in tidemark's metrics: the record, or
 * its dead letter with the reason. The one rule of {@link ParseRecordFn} and {@link
 * ParseInGatherStep}. The caller counts the records in ({@link #countIn}), a batch's at once: a
 * Beam counter looks itself up in the step's metrics at every increment.
 */
final class CountedParse<T> implements Serializable {

  private static final long serialVersionUID = 1L;

  private final Counter recordsIn = TidemarkMetrics.recordsIn();
  private final Counter deadLetters = TidemarkMetrics.deadLetters();
  private final ArrivedLineParser<T> parser;

  CountedParse(ArrivedLineParser<T> parser) {
    this.parser = parser;
  }

  /** Counts {@code records} records in, each of which is parsed once. */
  void countIn(long records) {
    recordsIn.inc(records);
  }

  /**
   * The record in {@code line}, whose source gave it {@code sourceTimestamp} and which was read by
   * wall-clock time {@code now}; or null, once its dead letter has gone to {@code dead}. A batch's
   * records share one {@code now}: they were read together, and the clock is read once for them.
   */
  @Nullable TimestampedValue<T> parse(
      ArrivedLine line, Instant sourceTimestamp, Instant now, Consumer<DeadLetter> dead) {
    try {
      T record = parser.parse(line, now);
      Instant eventTime = parser.eventTime(record);
      if (eventTime.isBefore(sourceTimestamp)) {
        throw new BadRecordException(
            "event time "
                + eventTime.getMillis()
                + " is before the timestamp "
                + sourceTimestamp.getMillis()
                + " the source gave the record; give the source the same event-time field");
      }
      return TimestampedValue.of(record, eventTime);
    } catch (BadRecordException e) {
      deadLetters.inc();
      String readBy = parser.formatThatReads(line);
      if (readBy != null) {
        TidemarkMetrics.deadLettersLike(readBy).inc();
      }
      dead.accept(new DeadLetter(line.text(), e.getMessage(), line.source()));
      return null;
    }
  }
}
