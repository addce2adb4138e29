package dev.tidemark.transforms.io;

import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A long replay's progress, logged on {@code tidemark.progress} at most once per interval: lines
 * read, the share of the recording that is, the rate since the last line, and the replay's
 * watermark. One per replay source, which keeps it across the readers a runner makes of it (the
 * DirectRunner closes and restores the reader every few bundles).
 */
final class ReplayProgress {

  private static final Logger LOG = LoggerFactory.getLogger("tidemark.progress");

  private final RecordedLines lines;
  private final long intervalNanos;
  private long lastNanos = System.nanoTime();
  private long lastLines;
  private long charsRead;

  ReplayProgress(RecordedLines lines, Duration interval) {
    this.lines = lines;
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(interval.getMillis());
  }

  /** After a batch: {@code linesRead} in all, {@code chars} more, the watermark now. */
  synchronized void read(long linesRead, long chars, Instant watermark) {
    charsRead += chars;
    long now = System.nanoTime();
    if (now - lastNanos < intervalNanos) {
      return;
    }
    double perSecond = (linesRead - lastLines) * 1e9 / (now - lastNanos);
    lastNanos = now;
    lastLines = linesRead;
    LOG.info(
        String.format(
            Locale.ROOT,
            "read %,d lines%s of %s at %,.0f lines/s; replay watermark %s",
            linesRead,
            share(linesRead),
            lines.describe(),
            perSecond,
            watermark));
  }

  /** " (31 %)", from the lines or, for files, the bytes; empty when the size is not known. */
  private String share(long linesRead) {
    OptionalLong totalLines = lines.totalLines();
    if (totalLines.isPresent() && totalLines.getAsLong() > 0) {
      return percent((double) linesRead / totalLines.getAsLong());
    }
    OptionalLong totalBytes = lines.totalBytes();
    if (totalBytes.isPresent() && totalBytes.getAsLong() > 0) {
      // Characters and line ends, as bytes: exact for ASCII, close for the rest.
      return percent(Math.min(0.99, (double) (charsRead + linesRead) / totalBytes.getAsLong()));
    }
    return "";
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, " (%.0f %%)", share * 100);
  }
}
