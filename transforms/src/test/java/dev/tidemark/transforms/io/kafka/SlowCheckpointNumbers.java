package dev.tidemark.transforms.io.kafka;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The numbers 0 to {@code count - 1}, one a millisecond, from a source that takes {@code holdUp}
 * over every {@code every}-th checkpoint. On Flink a source sends a checkpoint's barrier on before
 * it takes its own part, so with a checkpoint timeout below {@code holdUp} those checkpoints expire
 * after the steps downstream have taken theirs, as a checkpoint behind a busy task does in
 * production.
 */
final class SlowCheckpointNumbers extends UnboundedSource<Long, SlowCheckpointNumbers.Next> {

  private static final long serialVersionUID = 1L;

  private final long count;
  private final int every;
  private final long holdUpMillis;

  SlowCheckpointNumbers(long count, int every, Duration holdUp) {
    this.count = count;
    this.every = every;
    this.holdUpMillis = holdUp.toMillis();
  }

  @Override
  public List<SlowCheckpointNumbers> split(int desiredNumSplits, PipelineOptions options) {
    return List.of(this);
  }

  @Override
  public UnboundedReader<Long> createReader(PipelineOptions options, @Nullable Next restored) {
    return new Reader(restored == null ? 0 : restored.number);
  }

  @Override
  public Coder<Next> getCheckpointMarkCoder() {
    return SerializableCoder.of(Next.class);
  }

  @Override
  public Coder<Long> getOutputCoder() {
    return VarLongCoder.of();
  }

  /** The next number to read. */
  static final class Next implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;

    private final long number;

    Next(long number) {
      this.number = number;
    }

    @Override
    public void finalizeCheckpoint() {}
  }

  private final class Reader extends UnboundedReader<Long> {

    private final long startedAt = System.currentTimeMillis();
    private final long first;
    private long next;
    private long current = -1;
    private int checkpoints;

    Reader(long first) {
      this.first = first;
      this.next = first;
    }

    @Override
    public boolean start() {
      return advance();
    }

    /** The next number, once its millisecond has come. */
    @Override
    public boolean advance() {
      if (next >= count || next - first > System.currentTimeMillis() - startedAt) {
        return false;
      }
      current = next++;
      return true;
    }

    @Override
    public Long getCurrent() {
      if (current < 0) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override
    public Instant getCurrentTimestamp() {
      return new Instant(getCurrent());
    }

    @Override
    public void close() {}

    @Override
    public Instant getWatermark() {
      return next >= count ? BoundedWindow.TIMESTAMP_MAX_VALUE : new Instant(Math.max(0, current));
    }

    @Override
    public Next getCheckpointMark() {
      checkpoints++;
      if (checkpoints % every == 0 && next < count) {
        // Pacing is what this source is for: the checkpoint must outlive its timeout.
        try {
          Thread.sleep(holdUpMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return new Next(next);
    }

    @Override
    public SlowCheckpointNumbers getCurrentSource() {
      return SlowCheckpointNumbers.this;
    }
  }
}
