package dev.tidemark.pipelines.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends text to a file in one {@code write(2)} on a channel opened for appending: the kernel
 * moves to the end of the file and writes in one step, and its writes to one file do not
 * interleave, so each append lands whole beside those of other threads of this JVM, or of other
 * processes on the same machine, with no lock of ours. ({@code Files.write} would not do: it writes
 * in pieces of 8 KiB, between which another append may come.) Only a full disk makes a write
 * partial; the rest then follows, or the write fails.
 */
final class FileAppends {

  private FileAppends() {}

  /** Appends {@code text}, as UTF-8, to {@code file}, creating it if it does not exist. */
  static void append(Path file, CharSequence text) {
    ByteBuffer bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(text));
    try (FileChannel channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }
}
