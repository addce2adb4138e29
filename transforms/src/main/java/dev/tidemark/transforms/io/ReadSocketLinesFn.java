package dev.tidemark.transforms.io;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.watermark.IdleAwareWatermark;
import dev.tidemark.transforms.watermark.IdleAwareWatermarkEstimator;
import dev.tidemark.transforms.watermark.InputProgress;
import dev.tidemark.transforms.watermark.InputProgressCoder;
import dev.tidemark.transforms.watermark.Watermarks;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.range.OffsetRange;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.splittabledofn.OffsetRangeTracker;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.splittabledofn.WatermarkEstimator;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Reads lines from a socket as an unbounded splittable DoFn whose watermark comes from {@link
 * IdleAwareWatermarkEstimator}. The restriction counts lines; the connection lives in {@link
 * SocketLineReaders} between bundles, held by every instance of this DoFn from setup to teardown.
 */
@DoFn.UnboundedPerElement
final class ReadSocketLinesFn extends DoFn<byte[], ArrivedLine> {

  private static final Duration POLL_DELAY = Duration.millis(100);

  private final String sourceId;
  private final String host;
  private final int port;
  private final boolean endWhenClosed;
  private final int maxLineBytes;
  private final SerializableFunction<String, @Nullable Instant> eventTime;
  private final IdleAwareWatermark rule;

  ReadSocketLinesFn(
      String sourceId,
      String host,
      int port,
      boolean endWhenClosed,
      int maxLineBytes,
      SerializableFunction<String, @Nullable Instant> eventTime,
      IdleAwareWatermark rule) {
    this.sourceId = sourceId;
    this.host = host;
    this.port = port;
    this.endWhenClosed = endWhenClosed;
    this.maxLineBytes = maxLineBytes;
    this.eventTime = eventTime;
    this.rule = rule;
  }

  @Setup
  public void setup() {
    SocketLineReaders.hold(sourceId);
  }

  @GetInitialRestriction
  public OffsetRange initialRestriction() {
    return new OffsetRange(0, Long.MAX_VALUE);
  }

  @NewTracker
  public OffsetRangeTracker newTracker(@Restriction OffsetRange restriction) {
    return new OffsetRangeTracker(restriction);
  }

  @GetRestrictionCoder
  public Coder<OffsetRange> restrictionCoder() {
    return OffsetRange.Coder.of();
  }

  @GetInitialWatermarkEstimatorState
  public InputProgress initialWatermarkState() {
    return InputProgress.startingAt(Instant.now());
  }

  @GetWatermarkEstimatorStateCoder
  public Coder<InputProgress> watermarkStateCoder() {
    return InputProgressCoder.of();
  }

  @NewWatermarkEstimator
  public IdleAwareWatermarkEstimator newWatermarkEstimator(
      @WatermarkEstimatorState InputProgress state) {
    return new IdleAwareWatermarkEstimator(rule, state);
  }

  @ProcessElement
  public ProcessContinuation processElement(
      RestrictionTracker<OffsetRange, Long> tracker,
      WatermarkEstimator<InputProgress> watermark,
      OutputReceiver<ArrivedLine> out) {
    SocketLineReader reader =
        SocketLineReaders.reader(
            sourceId, () -> new SocketLineReader(host, port, !endWhenClosed, maxLineBytes));
    long position = tracker.currentRestriction().getFrom();
    while (true) {
      LineSplitter.@Nullable Line line = reader.peek();
      if (line == null) {
        boolean read = reader.fill();
        if (reader.peek() != null) {
          continue;
        }
        if (read) {
          // Part of a long line came: hand control back, so the runner may checkpoint, and go on.
          return ProcessContinuation.resume();
        }
        if (reader.isFinished()) {
          // Claiming past the end marks the restriction done, so the runner accepts stop().
          tracker.tryClaim(Long.MAX_VALUE);
          SocketLineReaders.finished(sourceId);
          return ProcessContinuation.stop();
        }
        // Caught up: hand control back so the runner takes the (possibly idle) watermark.
        return ProcessContinuation.resume().withResumeDelay(POLL_DELAY);
      }
      if (!tracker.tryClaim(position)) {
        // The runner checkpointed this call (Flink's after 10,000 outputs or 10 s): Beam requires
        // stop() now, and resumes the residual itself. The line stays queued in the reader and is
        // emitted when the residual resumes.
        return ProcessContinuation.stop();
      }
      position++;
      reader.take();
      // A line without a usable event time, or cut for its length, must not move the watermark:
      // the estimator observes every output's timestamp, so it goes out at the current watermark.
      @Nullable Instant timestamp =
          line.whyCut() == null
              ? rule.clockSkewGuard().admit(eventTimeOrNull(line.text()), Instant.now())
              : null;
      out.outputWithTimestamp(
          arrived(line, position), timestamp == null ? watermark.currentWatermark() : timestamp);
    }
  }

  /** The line the source read as number {@code number} (from 1); a cut one says where it was. */
  private ArrivedLine arrived(LineSplitter.Line line, long number) {
    if (line.whyCut() == null) {
      return ArrivedLine.live(line.text());
    }
    return new ArrivedLine(
        line.text(),
        Watermarks.MIN,
        Event.UNKNOWN_POSITION,
        null,
        null,
        line.whyCut() + " (line " + number + " read from " + host + ":" + port + ")");
  }

  @Teardown
  public void teardown() {
    SocketLineReaders.release(sourceId);
  }

  private @Nullable Instant eventTimeOrNull(String line) {
    try {
      return eventTime.apply(line);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
