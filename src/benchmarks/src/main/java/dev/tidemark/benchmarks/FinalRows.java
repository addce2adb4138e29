package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Follows the rows a live {@code metrics} run appends to its file, and adds up the counts of the
 * final panes of complete windows: what must reach {@link S5Topic#inCompleteWindows()}. Reads only
 * what was appended since the last look, and only whole lines.
 */
final class FinalRows {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter WINDOW_END =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private final Path file;
  private final S5Topic topic;
  private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
  private final ByteArrayOutputStream partialLine = new ByteArrayOutputStream();
  private long position;
  private long counted;

  FinalRows(Path file, S5Topic topic) {
    this.file = file;
    this.topic = topic;
  }

  /** What the final panes of complete windows count, with every row appended by now. */
  long counted() {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.position(position);
      for (int read = channel.read(buffer); read > 0; read = channel.read(buffer)) {
        position += read;
        buffer.flip();
        while (buffer.hasRemaining()) {
          byte next = buffer.get();
          if (next == '\n') {
            add(partialLine.toString(StandardCharsets.UTF_8));
            partialLine.reset();
          } else {
            partialLine.write(next);
          }
        }
        buffer.clear();
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the run's rows in " + file, e);
    }
    return counted;
  }

  private void add(String line) throws IOException {
    JsonNode row = JSON.readTree(line);
    if (row.get("final").asBoolean() && topic.isComplete(windowEnd(row))) {
      counted += row.get("count_result").asLong();
    }
  }

  /**
   * The end of a {@code metrics} row's window, from its {@code event_time_log} (UTC), in millis.
   */
  static long windowEnd(JsonNode row) {
    return LocalDateTime.parse(row.get("event_time_log").asText(), WINDOW_END)
        .toInstant(ZoneOffset.UTC)
        .toEpochMilli();
  }
}
