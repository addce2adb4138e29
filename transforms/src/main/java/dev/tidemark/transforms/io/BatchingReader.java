package dev.tidemark.transforms.io;

import dev.tidemark.transforms.model.SourceBatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.LongSupplier;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/** The reader of a {@link BatchingUnboundedSource}: see there what it keeps the same. */
final class BatchingReader<T> extends UnboundedReader<SourceBatch<T>> {

  private final BatchingUnboundedSource<T, ?> source;
  private final UnboundedReader<T> records;
  private final int maxRecords;
  private final long maxGatheringNanos;
  private final LongSupplier nanoTime;
  private @Nullable SourceBatch<T> current;
  private Instant currentTimestamp = BoundedWindow.TIMESTAMP_MIN_VALUE;
  private Instant watermark = BoundedWindow.TIMESTAMP_MIN_VALUE;

  /** Whether a batch has been read, so that {@link #watermark} bounds the next one. */
  private boolean batchRead;

  /**
   * Reads {@code records} into batches of up to {@code source}'s most records, each gathered for at
   * most its longest time by {@code nanoTime} (a test's own clock, or {@link System#nanoTime}).
   */
  BatchingReader(
      BatchingUnboundedSource<T, ?> source, UnboundedReader<T> records, LongSupplier nanoTime) {
    this.source = source;
    this.records = records;
    this.maxRecords = source.maxRecords();
    this.maxGatheringNanos = source.maxGatheringNanos();
    this.nanoTime = nanoTime;
  }

  @Override
  public boolean start() throws IOException {
    return batchFrom(records.start());
  }

  @Override
  public boolean advance() throws IOException {
    return batchFrom(records.advance());
  }

  /** The batch that starts at the wrapped reader's current record, if it has one. */
  private boolean batchFrom(boolean hasRecord) throws IOException {
    if (!hasRecord) {
      current = null;
      // Read here too, where the runner collects the step's metrics: a reader whose inputs are all
      // empty reports them, and its watermark moves on while no record comes.
      readWatermark();
      return false;
    }
    // No step can have met a watermark later than the highest given before this batch (see
    // SourceBatch). Before the first batch, the wrapped reader's at its first record: a restored
    // reader starts from the watermark of its checkpoint, which the steps downstream had met.
    Instant bound = batchRead ? watermark : readWatermark();
    batchRead = true;
    List<TimestampedValue<T>> batch = new ArrayList<>();
    Instant earliest = BoundedWindow.TIMESTAMP_MAX_VALUE;
    long startedNanos = nanoTime.getAsLong();
    do {
      Instant timestamp = records.getCurrentTimestamp();
      batch.add(TimestampedValue.of(records.getCurrent(), timestamp));
      earliest = timestamp.isBefore(earliest) ? timestamp : earliest;
      // Size and age are checked first: a batch must not advance past a record it cannot hold.
    } while (batch.size() < maxRecords
        && nanoTime.getAsLong() - startedNanos < maxGatheringNanos
        && records.advance());
    readWatermark();
    current = new SourceBatch<>(batch, bound);
    currentTimestamp = earliest;
    return true;
  }

  @Override
  public SourceBatch<T> getCurrent() {
    if (current == null) {
      throw new NoSuchElementException("no batch: start() or advance() returned false");
    }
    return current;
  }

  @Override
  public Instant getCurrentTimestamp() {
    getCurrent();
    return currentTimestamp;
  }

  /**
   * The watermark as read at the end of the last {@code start} or {@code advance}. Read there only:
   * the runner collects a source's metrics in those calls, and a timestamp policy that sets gauges
   * as it computes the watermark (tidemark's idle-aware policies do) would set them outside any
   * metrics scope if it were read here too; the FlinkRunner asks for it there, and Beam logs each
   * such gauge as an error with a stack trace. Between two calls nothing new has been read.
   */
  @Override
  public Instant getWatermark() {
    return watermark;
  }

  /** Reads the wrapped reader's watermark; the batch's never goes back. */
  private Instant readWatermark() {
    Instant now = records.getWatermark();
    if (now.isAfter(watermark)) {
      watermark = now;
    }
    return watermark;
  }

  @Override
  public UnboundedSource.CheckpointMark getCheckpointMark() {
    return records.getCheckpointMark();
  }

  @Override
  public UnboundedSource<SourceBatch<T>, ?> getCurrentSource() {
    return source.ofSplit(records.getCurrentSource());
  }

  @Override
  public long getSplitBacklogBytes() {
    return records.getSplitBacklogBytes();
  }

  @Override
  public long getTotalBacklogBytes() {
    return records.getTotalBacklogBytes();
  }

  @Override
  public void close() throws IOException {
    records.close();
  }
}
