package dev.tidemark.transforms.io;

import dev.tidemark.transforms.watermark.Watermarks;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Replays {@link RecordedLines} as an event-time stream under the same bounded-out-of-orderness
 * watermark as a live source, one reader, in order, and ends when the lines do (the watermark goes
 * to the end of time, every window fires, the job finishes).
 *
 * <p>Each line is emitted as {@code KV(line, arrivalWatermark)}: the watermark the replay had just
 * before reading it ({@code maxEventTime - maxOutOfOrderness - 1 ms} over the lines before it).
 * {@code CaptureLateData} decides lateness with it, so a line that is late in the recording is late
 * in the result on every runner and at any parallelism, however the runner interleaves records and
 * watermarks; that is what makes a replay's results, and predictions about them, checkable. A line
 * without an event time is emitted at its arrival watermark.
 *
 * <p>With a rate, lines are released at that many per second, like a live feed; without, as fast as
 * the runner reads. A checkpoint records how many lines were read and the newest event time, so a
 * restored reader continues where it stopped.
 */
public final class ReplaySource
    extends UnboundedSource<KV<String, Instant>, ReplaySource.Position> {

  private static final long serialVersionUID = 1L;

  private final RecordedLines lines;
  private final SerializableFunction<String, @Nullable Instant> eventTime;
  private final Duration maxOutOfOrderness;
  private final double linesPerSecond;

  private ReplaySource(
      RecordedLines lines,
      SerializableFunction<String, @Nullable Instant> eventTime,
      Duration maxOutOfOrderness,
      double linesPerSecond) {
    this.lines = lines;
    this.eventTime = eventTime;
    this.maxOutOfOrderness = maxOutOfOrderness;
    this.linesPerSecond = linesPerSecond;
  }

  /**
   * Replays {@code lines}, each at the event time {@code eventTime} gives it (null: none), as fast
   * as the runner reads.
   */
  public static ReplaySource of(
      RecordedLines lines,
      SerializableFunction<String, @Nullable Instant> eventTime,
      Duration maxOutOfOrderness) {
    if (maxOutOfOrderness == null || maxOutOfOrderness.getMillis() < 0) {
      throw new IllegalArgumentException(
          "maxOutOfOrderness: " + maxOutOfOrderness + " is not allowed; use zero or more, e.g. 2s");
    }
    return new ReplaySource(lines, eventTime, maxOutOfOrderness, 0);
  }

  /** Releases at most {@code linesPerSecond} lines a second; 0 means as fast as possible. */
  public ReplaySource withRate(double linesPerSecond) {
    if (!(linesPerSecond >= 0)) {
      throw new IllegalArgumentException(
          "rate: " + linesPerSecond + " is not allowed; use 0 (no limit) or more lines a second");
    }
    return new ReplaySource(lines, eventTime, maxOutOfOrderness, linesPerSecond);
  }

  @Override
  public List<ReplaySource> split(int desiredNumSplits, PipelineOptions options) {
    // One reader: the order of the recording is what defines each line's arrival watermark.
    return List.of(this);
  }

  @Override
  public UnboundedReader<KV<String, Instant>> createReader(
      PipelineOptions options, @Nullable Position checkpoint) throws IOException {
    return new Reader(this, checkpoint == null ? new Position(0, null) : checkpoint);
  }

  @Override
  public Coder<Position> getCheckpointMarkCoder() {
    return new PositionCoder();
  }

  @Override
  public Coder<KV<String, Instant>> getOutputCoder() {
    return KvCoder.of(StringUtf8Coder.of(), InstantCoder.of());
  }

  /** How far a replay has read: lines read, and the newest event time among them. */
  public static final class Position implements UnboundedSource.CheckpointMark {
    private final long linesRead;
    private final @Nullable Instant maxEventTime;

    Position(long linesRead, @Nullable Instant maxEventTime) {
      this.linesRead = linesRead;
      this.maxEventTime = maxEventTime;
    }

    @Override
    public void finalizeCheckpoint() {
      // Nothing to acknowledge: the recording is read again from the start on restore.
    }
  }

  private static final class PositionCoder extends CustomCoder<Position> {
    private static final long serialVersionUID = 1L;

    @Override
    public void encode(Position position, OutputStream out) throws IOException {
      VarLongCoder.of().encode(position.linesRead, out);
      NullableCoder.of(InstantCoder.of()).encode(position.maxEventTime, out);
    }

    @Override
    public Position decode(InputStream in) throws IOException {
      return new Position(
          VarLongCoder.of().decode(in), NullableCoder.of(InstantCoder.of()).decode(in));
    }
  }

  private static final class Reader extends UnboundedReader<KV<String, Instant>> {
    private final ReplaySource source;
    private @Nullable Iterator<String> iterator;
    private long linesRead;
    private @Nullable Instant maxEventTime;
    private boolean exhausted;
    private long startNanos;
    private long emittedSinceStart;
    private @Nullable KV<String, Instant> current;
    private Instant currentTimestamp = Watermarks.MIN;

    Reader(ReplaySource source, Position position) {
      this.source = source;
      this.linesRead = position.linesRead;
      this.maxEventTime = position.maxEventTime;
    }

    @Override
    public boolean start() throws IOException {
      Iterator<String> opened = source.lines.open();
      for (long skipped = 0; skipped < linesRead && opened.hasNext(); skipped++) {
        opened.next();
      }
      iterator = opened;
      startNanos = System.nanoTime();
      return advance();
    }

    @Override
    public boolean advance() {
      if (iterator == null || !iterator.hasNext()) {
        exhausted = true;
        return false;
      }
      if (source.linesPerSecond > 0) {
        long due = (long) (emittedSinceStart * 1_000_000_000L / source.linesPerSecond);
        if (System.nanoTime() - startNanos < due) {
          return false;
        }
      }
      String line = iterator.next();
      linesRead++;
      emittedSinceStart++;
      Instant arrivalWatermark = watermarkBeforeNextLine();
      @Nullable Instant timestamp = eventTimeOrNull(line);
      if (timestamp == null) {
        currentTimestamp = arrivalWatermark;
      } else {
        currentTimestamp = Watermarks.clamp(timestamp);
        maxEventTime =
            maxEventTime == null
                ? currentTimestamp
                : Watermarks.latest(maxEventTime, currentTimestamp);
      }
      current = KV.of(line, arrivalWatermark);
      return true;
    }

    @Override
    public Instant getWatermark() {
      return exhausted ? Watermarks.MAX : watermarkBeforeNextLine();
    }

    private Instant watermarkBeforeNextLine() {
      return maxEventTime == null
          ? Watermarks.MIN
          : Watermarks.behind(maxEventTime, source.maxOutOfOrderness);
    }

    @Override
    public KV<String, Instant> getCurrent() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return currentTimestamp;
    }

    @Override
    public Position getCheckpointMark() {
      return new Position(linesRead, maxEventTime);
    }

    @Override
    public ReplaySource getCurrentSource() {
      return source;
    }

    @Override
    public void close() throws IOException {
      if (iterator instanceof Closeable) {
        ((Closeable) iterator).close();
      }
    }

    private @Nullable Instant eventTimeOrNull(String line) {
      try {
        return source.eventTime.apply(line);
      } catch (RuntimeException e) {
        return null;
      }
    }
  }
}
