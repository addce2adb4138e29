package dev.tidemark.transforms.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.annotations.VisibleForTesting;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The lines of a UTF-8 byte stream, exactly as {@code BufferedReader.readLine()} over an {@code
 * InputStreamReader} gives them: a line ends at {@code \n}, {@code \r} or {@code \r\n}, the end of
 * the stream ends a last line without one, and malformed bytes become U+FFFD.
 *
 * <p>Written by hand because the reader pair decodes every byte into a buffer of chars and then
 * copies the chars of each line into a String again, a large share of a replay's reading thread.
 * This reads 64 KB at a time, finds the ends of lines in the bytes (neither {@code \n} nor {@code
 * \r} occurs inside a UTF-8 sequence, so a line's bytes are found before decoding) and decodes each
 * line once, straight into its String.
 *
 * <p>A line longer than {@code maxLineBytes} is not held whole: the reader keeps its first {@link
 * RecordLimit#KEPT_BYTES} bytes, skips the rest up to its end of line while counting them, and
 * returns what it kept, with {@link #whyCut} saying so. Its buffer never grows past about twice the
 * limit, so a file with a gigabyte on one line costs as little memory as one without.
 */
final class Utf8LineReader implements Closeable {

  static final int DEFAULT_BUFFER_BYTES = 1 << 16;

  private final InputStream in;
  private final int maxLineBytes;
  private byte[] buffer;
  // The bytes read and not yet returned are buffer[start, end).
  private int start;
  private int end;
  // The last line ended with '\r': a '\n' right after it belongs to that end of line.
  private boolean skipLineFeed;
  private @Nullable String whyCut;

  /** Lines of any length. */
  Utf8LineReader(InputStream in) {
    this(in, DEFAULT_BUFFER_BYTES, Integer.MAX_VALUE);
  }

  /**
   * With a buffer of {@code bufferBytes} to start with, which grows to hold a longer line, and
   * lines longer than {@code maxLineBytes} cut.
   */
  Utf8LineReader(InputStream in, int bufferBytes, int maxLineBytes) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be positive, not " + maxLineBytes);
    }
    this.in = in;
    this.maxLineBytes = maxLineBytes;
    this.buffer =
        new byte[(int) Math.min(bufferBytes, Math.max(maxLineBytes, RecordLimit.KEPT_BYTES) + 1L)];
  }

  /**
   * Why the line {@link #readLine} returned last is not the whole line: how long it was and what
   * the limit is; null when it was whole.
   */
  @Nullable String whyCut() {
    return whyCut;
  }

  /**
   * The next line, without its end of line, or its first {@link RecordLimit#KEPT_BYTES} bytes if it
   * is longer than the limit ({@link #whyCut}); null at the end of the stream.
   */
  @Nullable String readLine() throws IOException {
    whyCut = null;
    if (skipLineFeed) {
      if (start == end && !fill()) {
        return null;
      }
      if (buffer[start] == '\n') {
        start++;
      }
      skipLineFeed = false;
    }
    int scanned = start;
    while (true) {
      for (int i = scanned; i < end; i++) {
        byte b = buffer[i];
        if (b == '\n' || b == '\r') {
          String line = i - start > maxLineBytes ? cut(kept(), i - start) : decode(i);
          start = i + 1;
          skipLineFeed = b == '\r';
          return line;
        }
      }
      int lineSoFar = end - start;
      if (lineSoFar > maxLineBytes) {
        return cutLine();
      }
      if (!fill()) {
        if (start == end) {
          return null;
        }
        String last = decode(end);
        start = end;
        return last;
      }
      scanned = start + lineSoFar;
    }
  }

  /**
   * The first bytes of the line at {@code start}, known to be longer than the limit and to go on
   * past the bytes read; the rest of it, up to and with its end of line, is read and dropped.
   */
  private String cutLine() throws IOException {
    String kept = kept();
    long length = 0;
    while (true) {
      for (int i = start; i < end; i++) {
        byte b = buffer[i];
        if (b == '\n' || b == '\r') {
          length += i - start;
          start = i + 1;
          skipLineFeed = b == '\r';
          return cut(kept, length);
        }
      }
      length += end - start;
      start = end;
      if (!fill()) {
        return cut(kept, length);
      }
    }
  }

  /** The first bytes of the line at {@code start}, for a line longer than the limit. */
  private String kept() {
    return new String(buffer, start, RecordLimit.keptBytes(maxLineBytes), StandardCharsets.UTF_8);
  }

  private String cut(String kept, long length) {
    whyCut = RecordLimit.reason("line", length, maxLineBytes);
    return kept;
  }

  private String decode(int lineEnd) {
    return new String(buffer, start, lineEnd - start, StandardCharsets.UTF_8);
  }

  /**
   * Reads more bytes after those not yet returned, moved to the front of the buffer (which doubles
   * if they fill it); false at the end of the stream.
   */
  private boolean fill() throws IOException {
    int unread = end - start;
    if (start > 0) {
      System.arraycopy(buffer, start, buffer, 0, unread);
    } else if (unread == buffer.length) {
      buffer = Arrays.copyOf(buffer, buffer.length * 2);
    }
    start = 0;
    end = unread;
    int read;
    do {
      read = in.read(buffer, end, buffer.length - end);
    } while (read == 0);
    if (read < 0) {
      return false;
    }
    end += read;
    return true;
  }

  /** The size of the buffer now: it bounds the memory the reader holds. */
  @VisibleForTesting
  int bufferBytes() {
    return buffer.length;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
