package dev.tidemark.transforms.io;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.parse.RecordFormat;
import dev.tidemark.transforms.watermark.ArrivalClockWatermark;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.watermark.PartitionedWatermark;
import dev.tidemark.transforms.watermark.RecordingWatermark;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Consumer;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Replays {@link RecordedLines} as an event-time stream under the same bounded-out-of-orderness
 * watermark as a live source, one reader, in order, and ends when the lines do (the watermark goes
 * to the end of time, every window fires, the job finishes).
 *
 * <p>Each line is read as an {@link ArrivedLine}: its text, its line number, and the watermark the
 * replay had just before reading it ({@code maxEventTime - maxOutOfOrderness - 1 ms} over the lines
 * before it, never later than the wall clock minus the bound). The replay's windowing ({@code
 * dev.tidemark.transforms.replay}) decides lateness and panes with it, so a line that is late in
 * the recording is late in the result on every runner and at any parallelism, however the runner
 * interleaves records and watermarks; that is what makes a replay's results, and predictions about
 * them, checkable. A line without an event time, or with one too far ahead of the wall clock
 * ({@link ClockSkewGuard}), is emitted at its arrival watermark and does not move the watermark.
 *
 * <p>Lines are emitted one per element, at their event time (at the arrival watermark when they
 * have none), or, for the replay's windowing, in batches of up to {@code maxLines} consecutive
 * lines stamped at the arrival watermark of their first line ({@link
 * #inBatchesAtArrivalWatermark}), so the runner's cost per element is paid once per batch.
 *
 * <p>The reported watermark is always the arrival watermark of the next line: it passes a value
 * only after every line that met a lower one has been emitted. Downstream steps rely on this.
 *
 * <p>With a rate, lines are released at that many per second, like a live feed; without, as fast as
 * the runner reads. A checkpoint records how many lines were read and the newest event time, so a
 * restored reader continues where it stopped.
 */
public final class ReplaySource extends UnboundedSource<List<ArrivedLine>, ReplaySource.Position> {

  private static final long serialVersionUID = 1L;

  private final RecordedLines lines;
  private final RecordFormat<?> format;
  private Duration maxOutOfOrderness;
  private ClockSkewGuard clockSkewGuard = ClockSkewGuard.withDefaultSkew();
  private double linesPerSecond;

  /** At most this many lines per element; above 1 only at the arrival watermark. */
  private int maxLinesPerElement = 1;

  /** How often to log progress ({@link ReplayProgress}); zero: never. */
  private Duration progressEvery = Duration.ZERO;

  /** The partition each line was recorded from; null: one partition. */
  private @Nullable SerializableFunction<String, String> partitionOf;

  /**
   * When a partition stops holding the watermark: this far behind the newest event time, or, with
   * {@link #arrivalClock}, this long without a record.
   */
  private Duration idleTimeout = Duration.ZERO;

  /** Whether the lines' own arrival times and partitions ({@link LineOrigins}) decide. */
  private boolean arrivalClock;

  /**
   * The replay's progress across the readers a runner makes of this source in one JVM (the
   * DirectRunner makes a new one every few bundles); it lives and goes with the source, so nothing
   * of a finished job stays behind in a long-lived TaskManager.
   */
  private transient @Nullable ReplayProgress progress;

  private ReplaySource(RecordedLines lines, RecordFormat<?> format, Duration maxOutOfOrderness) {
    this.lines = lines;
    this.format = format;
    this.maxOutOfOrderness = maxOutOfOrderness;
  }

  /** A copy of this source with {@code change} made to it, under a progress name of its own. */
  private ReplaySource with(Consumer<ReplaySource> change) {
    ReplaySource copy = new ReplaySource(lines, format, maxOutOfOrderness);
    copy.clockSkewGuard = clockSkewGuard;
    copy.linesPerSecond = linesPerSecond;
    copy.maxLinesPerElement = maxLinesPerElement;
    copy.progressEvery = progressEvery;
    copy.partitionOf = partitionOf;
    copy.idleTimeout = idleTimeout;
    copy.arrivalClock = arrivalClock;
    change.accept(copy);
    return copy;
  }

  /**
   * Replays {@code lines}, each at the event time {@code format} finds in it (none when it cannot
   * parse the line), as fast as the runner reads. Each line is parsed here for its event time; an
   * {@code Event} travels with its line ({@link ArrivedLine#parsed()}) so the parse step does not
   * parse it again.
   */
  public static ReplaySource of(
      RecordedLines lines, RecordFormat<?> format, Duration maxOutOfOrderness) {
    return new ReplaySource(lines, format, Duration.ZERO).withMaxOutOfOrderness(maxOutOfOrderness);
  }

  /** How far behind the newest event time a line may arrive and still be on time. */
  public ReplaySource withMaxOutOfOrderness(Duration maxOutOfOrderness) {
    if (maxOutOfOrderness == null || maxOutOfOrderness.getMillis() < 0) {
      throw new IllegalArgumentException(
          "maxOutOfOrderness: " + maxOutOfOrderness + " is not allowed; use zero or more, e.g. 2s");
    }
    return with(copy -> copy.maxOutOfOrderness = maxOutOfOrderness);
  }

  /** Releases at most {@code linesPerSecond} lines a second; 0 means as fast as possible. */
  public ReplaySource withRate(double linesPerSecond) {
    if (!(linesPerSecond >= 0)) {
      throw new IllegalArgumentException(
          "rate: " + linesPerSecond + " is not allowed; use 0 (no limit) or more lines a second");
    }
    return with(copy -> copy.linesPerSecond = linesPerSecond);
  }

  /**
   * Emits up to {@code maxLines} consecutive lines per element, stamped with the arrival watermark
   * of the first (the lowest of the batch) instead of an event time. No line is then ever behind
   * the watermark, so every runner holds its downstream watermarks for it while it is in flight;
   * and the runner's cost per element is paid once per batch. For the replay's windowing, which
   * reads each line's event time and arrival watermark from the line itself. A paced replay ({@link
   * #withRate}) emits what is due, so a batch never waits for lines.
   */
  public ReplaySource inBatchesAtArrivalWatermark(int maxLines) {
    if (maxLines < 1) {
      throw new IllegalArgumentException(
          "maxLines: " + maxLines + " is not allowed; use 1 or more");
    }
    return with(copy -> copy.maxLinesPerElement = maxLines);
  }

  /**
   * Logs the replay's progress on {@code tidemark.progress} at most every {@code interval}: lines
   * read, their share of the recording, the rate and the replay's watermark.
   */
  public ReplaySource withProgressEvery(Duration interval) {
    return with(copy -> copy.progressEvery = interval);
  }

  /**
   * How far ahead of the wall clock a line's event time may be ({@link ClockSkewGuard}); a line
   * further ahead is emitted at the current watermark and does not move it.
   */
  public ReplaySource withMaxFutureSkew(Duration maxFutureSkew) {
    ClockSkewGuard guard = ClockSkewGuard.allowingFutureSkew(maxFutureSkew);
    return with(copy -> copy.clockSkewGuard = guard);
  }

  /**
   * Replays lines recorded from several partitions: {@code partitionOf} says which partition a line
   * came from, and the watermark is {@link PartitionedWatermark}'s, the lowest of the partitions
   * that have not fallen more than {@code idleTimeout} behind the newest.
   */
  public ReplaySource withPartitions(
      SerializableFunction<String, String> partitionOf, Duration idleTimeout) {
    return with(
        copy -> {
          copy.partitionOf = partitionOf;
          copy.idleTimeout = idleTimeout;
        });
  }

  /**
   * Replays lines that know their partition and arrival time ({@link RecordedLines#origins}, a
   * snapshot of a Kafka topic) under the live rule, with their arrival times as the wall clock
   * ({@link ArrivalClockWatermark}): a partition without a record for {@code idleTimeout} stops
   * holding the watermark back.
   *
   * @throws IllegalArgumentException if the lines do not know where they came from
   */
  public ReplaySource withArrivalClock(Duration idleTimeout) {
    if (lines.origins().isEmpty()) {
      throw new IllegalArgumentException(
          lines.describe() + " does not know when its lines arrived; replay it by its order");
    }
    return with(
        copy -> {
          copy.arrivalClock = true;
          copy.idleTimeout = idleTimeout;
        });
  }

  /** A new watermark for one pass over the lines, partitioned as this source says. */
  public RecordingWatermark newWatermark() {
    return arrivalClock
        ? ArrivalClockWatermark.of(
            maxOutOfOrderness, idleTimeout, lines.origins().orElseThrow().partitions())
        : PartitionedWatermark.of(maxOutOfOrderness, idleTimeout);
  }

  /**
   * The partition line {@code line} (its number and text) was recorded from; the one partition, "",
   * when not partitioned.
   */
  public String partitionOf(long line, String text) {
    if (arrivalClock) {
      return lines.origins().orElseThrow().partitionOf(line);
    }
    if (partitionOf == null) {
      return "";
    }
    try {
      return partitionOf.apply(text);
    } catch (RuntimeException e) {
      return "";
    }
  }

  /**
   * Moves {@code watermark}'s clock to the arrival of line {@code line}, for lines that know it;
   * does nothing for the others.
   */
  public void arrive(RecordingWatermark watermark, long line) {
    if (arrivalClock) {
      watermark.arriveAt(lines.origins().orElseThrow().arrivalOf(line));
    }
  }

  /** Where line {@code line} is, for a person: {@code line 17 of the recording}, or its origin. */
  public String whereIs(long line) {
    return lines
        .origins()
        .map(origins -> origins.nameOf(line))
        .orElse("line " + line + " of the recording");
  }

  /** The progress of this source's replay, made by the first reader that asks. */
  private synchronized ReplayProgress progress() {
    if (progress == null) {
      progress = new ReplayProgress(lines, progressEvery);
    }
    return progress;
  }

  @Override
  public List<ReplaySource> split(int desiredNumSplits, PipelineOptions options) {
    // One reader: the order of the recording is what defines each line's arrival watermark.
    return List.of(this);
  }

  @Override
  public UnboundedReader<List<ArrivedLine>> createReader(
      PipelineOptions options, @Nullable Position checkpoint) throws IOException {
    return new ReplayReader(this, checkpoint == null ? new Position(0) : checkpoint);
  }

  @Override
  public Coder<Position> getCheckpointMarkCoder() {
    return new PositionCoder();
  }

  @Override
  public Coder<List<ArrivedLine>> getOutputCoder() {
    return ListCoder.of(ArrivedLine.Coder.of());
  }

  /**
   * How far a replay has read: the number of lines. A restored reader reads those lines again for
   * their event times, so its watermark continues where it stopped.
   */
  public static final class Position implements UnboundedSource.CheckpointMark {
    private final long linesRead;

    Position(long linesRead) {
      this.linesRead = linesRead;
    }

    long linesRead() {
      return linesRead;
    }

    @Override
    public void finalizeCheckpoint() {
      // Nothing to acknowledge: the recording is read again from the start on restore.
    }
  }

  private static final class PositionCoder extends AtomicCoder<Position> {

    @Override
    public void encode(Position position, OutputStream out) throws IOException {
      VarLongCoder.of().encode(position.linesRead, out);
    }

    @Override
    public Position decode(InputStream in) throws IOException {
      return new Position(VarLongCoder.of().decode(in));
    }
  }

  /** The recording. */
  RecordedLines lines() {
    return lines;
  }

  /** The format that gives each line's event time. */
  RecordFormat<?> format() {
    return format;
  }

  /** The bound by which the watermark trails the newest event time. */
  public Duration maxOutOfOrderness() {
    return maxOutOfOrderness;
  }

  /** The guard that admits an event time, or refuses it as too far ahead of the clock. */
  public ClockSkewGuard clockSkewGuard() {
    return clockSkewGuard;
  }

  /** Lines a second, for a paced replay; 0 for as fast as it can. */
  double linesPerSecond() {
    return linesPerSecond;
  }

  /** The most lines one element of the source holds. */
  int maxLinesPerElement() {
    return maxLinesPerElement;
  }

  /** The progress lines of the replay, if it says how far it has got; null otherwise. */
  @Nullable ReplayProgress progressIfReported() {
    return progressEvery.getMillis() > 0 ? progress() : null;
  }
}
