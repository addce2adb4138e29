package dev.tidemark.transforms.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The lines of a UTF-8 byte stream, exactly as {@code BufferedReader.readLine()} over an {@code
 * InputStreamReader} gives them: a line ends at {@code \n}, {@code \r} or {@code \r\n}, the end of
 * the stream ends a last line without one, and malformed bytes become U+FFFD.
 *
 * <p>Written by hand because the reader pair decodes every byte into a buffer of chars and then
 * copies the chars of each line into a String, 8 KB per read: over a 305 MB replay that was a
 * quarter of the reading thread's time. This reads 64 KB at a time, finds the ends of lines in the
 * bytes (neither {@code \n} nor {@code \r} occurs inside a UTF-8 sequence, so a line's bytes are
 * found before decoding) and decodes each line once, straight into its String.
 */
final class Utf8LineReader implements Closeable {

  static final int DEFAULT_BUFFER_BYTES = 1 << 16;

  private final InputStream in;
  private byte[] buffer;
  // The bytes read and not yet returned are buffer[start, end).
  private int start;
  private int end;
  // The last line ended with '\r': a '\n' right after it belongs to that end of line.
  private boolean skipLineFeed;

  Utf8LineReader(InputStream in) {
    this(in, DEFAULT_BUFFER_BYTES);
  }

  /** With a buffer of {@code bufferBytes} to start with; it grows to hold a longer line. */
  Utf8LineReader(InputStream in, int bufferBytes) {
    this.in = in;
    this.buffer = new byte[bufferBytes];
  }

  /** The next line, without its end of line; null at the end of the stream. */
  @Nullable String readLine() throws IOException {
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
          String line = decode(i);
          start = i + 1;
          skipLineFeed = b == '\r';
          return line;
        }
      }
      int lineSoFar = end - start;
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

  @Override
  public void close() throws IOException {
    in.close();
  }
}
