package dev.tidemark.transforms.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Cuts a byte stream into UTF-8 lines ending in {@code \n} (a trailing {@code \r} is dropped),
 * keeping an incomplete last line until its end arrives, and never more than {@code maxLineBytes}
 * of it: a longer line comes as its first {@link RecordLimit#keptBytes} bytes with the reason
 * ({@link RecordLimit#reason}), and the rest of it is counted, not kept. So a sender that never
 * ends a line costs at most the limit, never the JVM.
 *
 * <p>Written by hand because {@code BufferedReader.readLine()} loses the part of a line it has read
 * when a socket read times out, the socket source polls with a timeout, and no reader of the JDK
 * bounds the length of a line.
 */
final class LineSplitter {

  /** A line as the stream gave it: its text, or its first bytes and why it was cut. */
  record Line(String text, @Nullable String whyCut) {}

  private final int maxLineBytes;
  private byte[] partial = new byte[256];
  private int partialLength;

  /** The length of the line being read, counting what was not kept. */
  private long lineBytes;

  /** Whether the last byte of the line being read is a {@code \r}, kept or not. */
  private boolean endsInCarriageReturn;

  LineSplitter(int maxLineBytes) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException(
          "maxLineBytes: " + maxLineBytes + " is not a length; use 1 or more bytes");
    }
    this.maxLineBytes = maxLineBytes;
  }

  /** Feeds {@code length} bytes and hands every line they complete to {@code lines}. */
  void feed(byte[] bytes, int length, Consumer<Line> lines) {
    int start = 0;
    for (int i = 0; i < length; i++) {
      if (bytes[i] == '\n') {
        keep(bytes, start, i - start);
        lines.accept(takeLine());
        start = i + 1;
      }
    }
    keep(bytes, start, length - start);
  }

  /** Hands the incomplete last line, if any, to {@code lines}: the stream has ended. */
  void flush(Consumer<Line> lines) {
    if (lineBytes > 0) {
      lines.accept(takeLine());
    }
  }

  /** How many bytes the splitter holds for the line being read; at most the limit. */
  int heldBytes() {
    return partial.length;
  }

  /**
   * Adds {@code count} bytes to the current line, keeping them only while it is within the limit.
   */
  private void keep(byte[] bytes, int from, int count) {
    if (count == 0) {
      return;
    }
    lineBytes += count;
    endsInCarriageReturn = bytes[from + count - 1] == '\r';
    int room = maxLineBytes - partialLength;
    int kept = (int) Math.min(count, Math.max(room, 0));
    if (kept > 0) {
      if (partialLength + kept > partial.length) {
        partial =
            Arrays.copyOf(
                partial,
                (int) Math.min(maxLineBytes, Math.max(2L * partial.length, partialLength + kept)));
      }
      System.arraycopy(bytes, from, partial, partialLength, kept);
      partialLength += kept;
    }
  }

  private Line takeLine() {
    long recordBytes = endsInCarriageReturn ? lineBytes - 1 : lineBytes;
    Line line =
        recordBytes > maxLineBytes
            ? new Line(
                new String(partial, 0, RecordLimit.keptBytes(maxLineBytes), StandardCharsets.UTF_8),
                RecordLimit.reason("line", recordBytes, maxLineBytes))
            : new Line(new String(partial, 0, (int) recordBytes, StandardCharsets.UTF_8), null);
    partialLength = 0;
    lineBytes = 0;
    endsInCarriageReturn = false;
    return line;
  }
}
