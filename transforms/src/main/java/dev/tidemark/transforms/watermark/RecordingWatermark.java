package dev.tidemark.transforms.watermark;

import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The watermark of a replay, followed line by line over the partitions its lines came from: {@link
 * PartitionedWatermark} for a recording that knows only the order of its lines, {@link
 * ArrivalClockWatermark} for one that also knows when each line arrived. For each line, call {@link
 * #arriveAt} with its arrival time, read {@link #watermark} (the one the line meets), then {@link
 * #observe} its admitted event time. Not thread-safe.
 */
public interface RecordingWatermark {

  /** Time at the source has come to {@code arrival}, when the next line arrived. */
  void arriveAt(Instant arrival);

  /** A record of {@code partition} at the admitted {@code eventTime} was read. */
  void observe(String partition, Instant eventTime);

  /** The overall watermark now; {@link Watermarks#MIN} before any record. */
  Instant watermark();

  /** The newest event time observed, over every partition; null before any. */
  @Nullable Instant newest();

  /** The watermark of {@code partition} alone; {@link Watermarks#MIN} before its first record. */
  Instant watermarkOf(String partition);

  /**
   * The partition that holds the overall watermark back right now: the one, not quiet, whose
   * watermark is the overall one, when another partition is ahead of it; empty otherwise.
   */
  Optional<String> holdingBack();
}
