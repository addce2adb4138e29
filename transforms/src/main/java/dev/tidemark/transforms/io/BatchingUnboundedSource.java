package dev.tidemark.transforms.io;

import dev.tidemark.transforms.model.SourceBatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Another {@link UnboundedSource}'s records, up to {@code maxRecords} of them in one {@link
 * SourceBatch}, each with its own timestamp: the same records, checkpoints and watermark, in fewer
 * elements, each with a bound on the watermark its records can meet downstream.
 *
 * <p>Why: the FlinkRunner asks a source's reader for one element at a time, and after each one it
 * copies every Beam metric of the source step into Flink's ({@code ReaderInvocationUtil}), a cost
 * per element that dwarfs reading a record. A batch pays it once for all its records. This is
 * written here because Beam offers no way to read a source in batches.
 *
 * <p>What stays the same:
 *
 * <ul>
 *   <li>A batch holds the records that the wrapped reader had at hand: it ends when the reader has
 *       no next record yet, so a quiet source is not held back waiting for a full batch, and once
 *       it has been gathered for {@code maxGathering}, so a source whose records keep coming just
 *       in time for the next one (a live topic at a steady rate) hands on its records and its
 *       watermark at that pace. Only a source with a backlog fills a batch to {@code maxRecords}.
 *   <li>The runner reads the watermark and takes checkpoints between elements, so between batches:
 *       a watermark read after a batch covers every record in it, as it would after its last
 *       record, and a checkpoint mark taken after a batch is the wrapped reader's mark after its
 *       last record. The watermark never goes back: it is the highest the wrapped reader gave.
 *   <li>The wrapped reader's watermark is also read in every {@code start} and {@code advance},
 *       with or without a record: the FlinkRunner collects a source step's Beam metrics only there,
 *       so gauges that a reader sets as it computes its watermark (tidemark's Kafka policy sets one
 *       per partition) reach Flink, even for a reader that never has a record.
 *   <li>A batch's timestamp is its earliest record's, so a step that emits each record at its own
 *       timestamp never emits one before its input.
 * </ul>
 *
 * <p>A source that needs deduplication by record id cannot be batched, and is refused.
 *
 * @param <T> a record
 * @param <CheckpointT> the wrapped source's checkpoint mark
 */
public final class BatchingUnboundedSource<T, CheckpointT extends UnboundedSource.CheckpointMark>
    extends UnboundedSource<SourceBatch<T>, CheckpointT> {

  private static final long serialVersionUID = 1L;

  private final UnboundedSource<T, CheckpointT> records;
  private final int maxRecords;
  private final Duration maxGathering;

  private BatchingUnboundedSource(
      UnboundedSource<T, CheckpointT> records, int maxRecords, Duration maxGathering) {
    if (records.requiresDeduping()) {
      throw new IllegalArgumentException(
          records + " needs its records deduplicated by id; a batch has no id of its own");
    }
    if (maxRecords < 1) {
      throw new IllegalArgumentException("maxRecords: " + maxRecords + "; give 1 or more");
    }
    if (!maxGathering.isLongerThan(Duration.ZERO)) {
      throw new IllegalArgumentException("maxGathering: " + maxGathering + "; give more than 0");
    }
    this.records = records;
    this.maxRecords = maxRecords;
    this.maxGathering = maxGathering;
  }

  /**
   * {@code records}' records in elements of up to {@code maxRecords}, each gathered for at most
   * {@code maxGathering} once its first record is read.
   */
  public static <T, CheckpointT extends UnboundedSource.CheckpointMark>
      BatchingUnboundedSource<T, CheckpointT> of(
          UnboundedSource<T, CheckpointT> records, int maxRecords, Duration maxGathering) {
    return new BatchingUnboundedSource<>(records, maxRecords, maxGathering);
  }

  @Override
  public List<BatchingUnboundedSource<T, CheckpointT>> split(
      int desiredNumSplits, PipelineOptions options) throws Exception {
    List<BatchingUnboundedSource<T, CheckpointT>> splits = new ArrayList<>();
    for (UnboundedSource<T, CheckpointT> split : records.split(desiredNumSplits, options)) {
      splits.add(new BatchingUnboundedSource<>(split, maxRecords, maxGathering));
    }
    return splits;
  }

  @Override
  public UnboundedReader<SourceBatch<T>> createReader(
      PipelineOptions options, @Nullable CheckpointT checkpointMark) throws IOException {
    return new BatchingReader<>(
        this, records.createReader(options, checkpointMark), System::nanoTime);
  }

  /** Records in one batch at most. */
  int maxRecords() {
    return maxRecords;
  }

  /** How long one batch is gathered at most, in nanoseconds. */
  long maxGatheringNanos() {
    return maxGathering.getMillis() * 1_000_000L;
  }

  /** The batching source of the split that a wrapped reader reads now. */
  BatchingUnboundedSource<T, CheckpointT> ofSplit(UnboundedSource<T, ?> split) {
    @SuppressWarnings("unchecked") // a reader's split has its source's checkpoint type
    UnboundedSource<T, CheckpointT> typed = (UnboundedSource<T, CheckpointT>) split;
    return typed == records ? this : new BatchingUnboundedSource<>(typed, maxRecords, maxGathering);
  }

  @Override
  public Coder<CheckpointT> getCheckpointMarkCoder() {
    return records.getCheckpointMarkCoder();
  }

  @Override
  public Coder<SourceBatch<T>> getOutputCoder() {
    return SourceBatch.SourceBatchCoder.of(records.getOutputCoder());
  }

  @Override
  public String toString() {
    return records + " in batches of up to " + maxRecords + " records and " + maxGathering;
  }
}
