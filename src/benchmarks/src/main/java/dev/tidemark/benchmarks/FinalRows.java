package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 *
 * <p>It runs in the JVM it measures, polled every 20 ms, so it does as little as it can there: the
 * appended bytes are split at line ends with {@code indexOf} on a Latin-1 view of them (a UTF-8
 * line end is never part of another character, and the fields read are ASCII), and only a row that
 * says it is final is read with Jackson. A byte-by-byte loop here cost the measured run about 0.8 s
 * of C2 compilation, and a Jackson tree for every EARLY row: work the hand-written job's in-process
 * counter never does.
 */
final class FinalRows {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter WINDOW_END =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final String FINAL = "\"final\":true";

  private final Path file;
  private final S5Topic topic;
  private long position;
  private String partialLine = "";
  private long counted;

  FinalRows(Path file, S5Topic topic) {
    this.file = file;
    this.topic = topic;
  }

  /** What the final panes of complete windows count, with every row appended by now. */
  long counted() {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size > position) {
        ByteBuffer appended = ByteBuffer.allocate(Math.toIntExact(size - position));
        while (appended.hasRemaining()
            && channel.read(appended, position + appended.position()) > 0) {
          // reads until the buffer holds what the file held when it was measured
        }
        position += appended.position();
        addLines(
            partialLine
                + new String(
                    appended.array(), 0, appended.position(), StandardCharsets.ISO_8859_1));
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the run's rows in " + file, e);
    }
    return counted;
  }

  /** Adds the final rows among the whole lines of {@code text}, and keeps what follows them. */
  private void addLines(String text) throws IOException {
    int lineStart = 0;
    int nextFinal = text.indexOf(FINAL);
    for (int end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', lineStart)) {
      if (nextFinal >= 0 && nextFinal < end) {
        add(text.substring(lineStart, end));
        nextFinal = text.indexOf(FINAL, end);
      }
      lineStart = end + 1;
    }
    partialLine = text.substring(lineStart);
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
