package dev.tidemark.transforms.io;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Cuts a byte stream into UTF-8 lines ending in {@code \n} (a trailing {@code \r} is dropped),
 * keeping an incomplete last line until its end arrives.
 *
 * <p>Written by hand because {@code BufferedReader.readLine()} loses the part of a line it has read
 * when a socket read times out, and the socket source polls with a timeout.
 */
final class LineSplitter {

  private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

  /** Feeds {@code length} bytes and hands every line they complete to {@code lines}. */
  void feed(byte[] bytes, int length, Consumer<String> lines) {
    int start = 0;
    for (int i = 0; i < length; i++) {
      if (bytes[i] == '\n') {
        partial.write(bytes, start, i - start);
        lines.accept(takeLine());
        start = i + 1;
      }
    }
    partial.write(bytes, start, length - start);
  }

  /** Hands the incomplete last line, if any, to {@code lines}: the stream has ended. */
  void flush(Consumer<String> lines) {
    if (partial.size() > 0) {
      lines.accept(takeLine());
    }
  }

  private String takeLine() {
    String line = partial.toString(StandardCharsets.UTF_8);
    partial.reset();
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }
}
