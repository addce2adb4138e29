package dev.tidemark.transforms.windowing;

import java.io.Serializable;
import java.util.function.Consumer;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Turns the raw records of a {@code SourceBatch} into the values that {@link
 * AggregatePerWindow#ofBatchesParsedBy} aggregates, in the same step that gathers them before the
 * shuffle, and hands each record it cannot use to the step's rejected output.
 *
 * <h2>Why the parse runs in the gathering step</h2>
 *
 * <p>On the FlinkRunner every Beam step is an operator that hands the watermark on only between
 * bundles (Beam 2.70's {@code DoFnOperator}). A bundle that ends by count hands it on at once. One
 * that ends by time only schedules that, and when a step's input never pauses (a source catching up
 * on a backlog), the step has begun its next bundle by the time the schedule comes round, so the
 * watermark waits for the next one to reach the step between two bundles. With one step between the
 * source and the shuffle, that is the next watermark the source sends after a bundle that ended by
 * time. With two (a parse step, then the gathering step), both must be between bundles at that
 * moment, which their own bundle clocks rarely allow: over a backlog of 2M Kafka records, the
 * windows after the first few seconds of event time stayed open, and gave EARLY panes, until the
 * whole backlog had been read. Parsing where the records are gathered leaves one.
 *
 * @param <RecordT> what the source reads
 * @param <V> the value aggregated
 * @param <RejectT> what a record that has no value becomes
 */
public interface RecordParser<RecordT, V, RejectT> extends Serializable {

  /**
   * The value in {@code record} at its event time, read by wall-clock time {@code now} (once per
   * batch, shared by its records); or null, once its reject has gone to {@code rejected}.
   */
  @Nullable TimestampedValue<V> parse(
      TimestampedValue<RecordT> record, Instant now, Consumer<RejectT> rejected);

  /** Told the size of each batch before its records are parsed, to count them at once. */
  default void batchOf(int records) {}
}
