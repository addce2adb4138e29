package dev.tidemark.transforms.io;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.watermark.RecordingWatermark;
import dev.tidemark.transforms.watermark.Watermarks;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.metrics.Gauge;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The reader of a {@link ReplaySource}: reads the recording in order, line by line or in batches,
 * and gives each line the watermark it met (the recording's watermark before it, never later than
 * the clock allows), paced when the source is. A restored reader reads the lines it had read again,
 * for their event times, so its watermark continues where it stopped; it emits none of them.
 */
final class ReplayReader extends UnboundedReader<List<ArrivedLine>> {
  private final ReplaySource source;
  private @Nullable Iterator<String> iterator;
  private final @Nullable ReplayProgress progress;
  private final Gauge watermarkGauge;
  private final Gauge activityGauge;
  private final Gauge recordsReadGauge;
  private final Gauge newestEventTimeGauge;
  private final Gauge lagGauge;
  private final RecordingWatermark watermark;
  private long linesRead;
  private boolean exhausted;
  private long startNanos;
  private long emittedSinceStart;
  private @Nullable List<ArrivedLine> current;
  private Instant currentTimestamp = Watermarks.MIN;

  ReplayReader(ReplaySource source, ReplaySource.Position position) {
    this.source = source;
    this.linesRead = position.linesRead();
    this.watermark = source.newWatermark();
    String input = source.lines().describe();
    this.watermarkGauge = TidemarkMetrics.watermark(input);
    this.activityGauge = TidemarkMetrics.activity(input);
    this.recordsReadGauge = TidemarkMetrics.recordsRead(input);
    this.newestEventTimeGauge = TidemarkMetrics.newestEventTime(input);
    this.lagGauge = TidemarkMetrics.lag(input);
    this.progress = source.progressIfReported();
  }

  @Override
  public boolean start() throws IOException {
    Iterator<String> opened = source.lines().open();
    for (long skipped = 1; skipped <= linesRead && opened.hasNext(); skipped++) {
      String line = opened.next();
      source.arrive(watermark, skipped);
      @Nullable ParsedLine<?> parsed = whyCut(opened) == null ? parseOrNull(line) : null;
      admit(skipped, line, parsed == null ? null : parsed.eventTime(), Instant.now());
    }
    iterator = opened;
    startNanos = System.nanoTime();
    return advance();
  }

  @Override
  public boolean advance() {
    List<ArrivedLine> batch = new ArrayList<>(Math.min(source.maxLinesPerElement(), 1024));
    // The clock is read once per batch, whose lines are all due at once: a batch takes well under
    // a millisecond to read, and an earlier "now" only caps the watermark and admits event times
    // more strictly, never less (ClockSkewGuard says why that order is safe).
    Instant now = Instant.now();
    Instant clockCap = ClockSkewGuard.clockCap(now, source.maxOutOfOrderness());
    while (batch.size() < source.maxLinesPerElement() && isNextLineDue()) {
      String line = iterator.next();
      linesRead++;
      emittedSinceStart++;
      source.arrive(watermark, linesRead);
      Instant arrivalWatermark = watermarkBeforeNextLine(clockCap);
      // A line cut for its length is no record: its first bytes must not move the watermark.
      @Nullable String whyCut = whyCut(iterator);
      // Parsed once, here: the event time moves the watermark, and the next step reuses the rest.
      @Nullable ParsedLine<?> parsed = whyCut == null ? parseOrNull(line) : null;
      @Nullable Instant timestamp =
          admit(linesRead, line, parsed == null ? null : parsed.eventTime(), now);
      if (batch.isEmpty()) {
        currentTimestamp =
            timestamp == null || source.maxLinesPerElement() > 1 ? arrivalWatermark : timestamp;
      }
      batch.add(
          new ArrivedLine(
              line,
              arrivalWatermark,
              linesRead,
              null,
              parsed == null ? null : parsed.event(),
              whyCut == null ? null : whyCut + " (" + source.whereIs(linesRead) + ")"));
    }
    if (batch.isEmpty()) {
      exhausted = iterator == null || !iterator.hasNext();
      return false;
    }
    Instant watermark = watermarkBeforeNextLine(clockCap);
    reportGauges(watermark);
    if (progress != null) {
      long chars = 0;
      for (ArrivedLine line : batch) {
        chars += line.text().length();
      }
      progress.read(linesRead, chars, watermark);
    }
    current = batch;
    return true;
  }

  /**
   * The event time line {@code number}, {@code line}, moves the watermark with, when the clock-skew
   * guard admits it; null when it has none, or is refused.
   */
  private @Nullable Instant admit(
      long number, String line, @Nullable Instant eventTime, Instant now) {
    @Nullable Instant admitted = source.clockSkewGuard().admit(eventTime, now);
    if (admitted != null) {
      watermark.observe(source.partitionOf(number, line), admitted);
    }
    return admitted;
  }

  /** The input's gauges, after each batch ({@link TidemarkMetrics}). */
  private void reportGauges(Instant current) {
    watermarkGauge.set(current.getMillis());
    activityGauge.set(0);
    recordsReadGauge.set(linesRead);
    @Nullable Instant newest = watermark.newest();
    if (newest != null) {
      newestEventTimeGauge.set(newest.getMillis());
      lagGauge.set(Math.max(0, newest.getMillis() - current.getMillis()));
    }
  }

  /** Whether there is a next line and, for a paced replay, it is due. */
  private boolean isNextLineDue() {
    if (iterator == null || !iterator.hasNext()) {
      return false;
    }
    if (source.linesPerSecond() > 0) {
      long due = (long) (emittedSinceStart * 1_000_000_000L / source.linesPerSecond());
      return System.nanoTime() - startNanos >= due;
    }
    return true;
  }

  @Override
  public Instant getWatermark() {
    return exhausted
        ? Watermarks.MAX
        : watermarkBeforeNextLine(
            ClockSkewGuard.clockCap(Instant.now(), source.maxOutOfOrderness()));
  }

  /** The watermark the next line meets, never later than {@code clockCap}. */
  private Instant watermarkBeforeNextLine(Instant clockCap) {
    return watermark.newest() == null
        ? Watermarks.MIN
        : Watermarks.earliest(watermark.watermark(), clockCap);
  }

  @Override
  public List<ArrivedLine> getCurrent() {
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
  public ReplaySource.Position getCheckpointMark() {
    return new ReplaySource.Position(linesRead);
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

  /** Why the line {@code lines} gave last was cut ({@link CutLines}); null when it is whole. */
  private static @Nullable String whyCut(Iterator<String> lines) {
    return lines instanceof CutLines cut ? cut.whyCut() : null;
  }

  private @Nullable ParsedLine<?> parseOrNull(String line) {
    return ParsedLine.of(source.format(), line);
  }
}
