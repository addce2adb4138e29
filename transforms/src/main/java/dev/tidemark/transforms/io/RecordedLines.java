package dev.tidemark.transforms.io;

import java.io.IOException;
import java.io.Serializable;
import java.util.Iterator;
import java.util.Optional;
import java.util.OptionalLong;

/** Lines that can be read again from the start, in the same order: a file, a generated stream. */
public interface RecordedLines extends Serializable {

  /** Opens the lines from the first; the caller closes the iterator if it is {@code Closeable}. */
  Iterator<String> open() throws IOException;

  /** Where the lines come from, for log lines and errors. */
  String describe();

  /** How many lines there are, when that is known without reading them. */
  default OptionalLong totalLines() {
    return OptionalLong.empty();
  }

  /** How many bytes the lines take, when that is known without reading them. */
  default OptionalLong totalBytes() {
    return OptionalLong.empty();
  }

  /**
   * Where each line came from, when the recording knows (a snapshot of a Kafka topic); empty for a
   * file or a generated stream, whose lines have only their order.
   */
  default Optional<LineOrigins> origins() {
    return Optional.empty();
  }
}
