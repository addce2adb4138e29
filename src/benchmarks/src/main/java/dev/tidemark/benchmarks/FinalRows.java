package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Follows the rows a live {@code metrics} run appends to its file, and adds up the counts of the
 * final panes of complete windows: what must reach {@link S5Topic#inCompleteWindows()}. Reads only
 * what was appended since the last look, and only whole lines.
 *
 * <p>It runs in the JVM it measures, polled every 20 ms, so it does as little as it can there: the
 * appended bytes are split at line ends with {@code indexOf} on a Latin-1 view of them (a UTF-8
 * line end is never part of another character, and the fields read are ASCII), and a final row's
 * two fields are found with {@code indexOf} too: its window's end is compared as text with the
 * newest complete window's, which sorts the same way ({@code yyyy-MM-dd HH:mm:ss}, UTC, whole
 * seconds), and its count is parsed where it stands. The hand-written job's in-process counter adds
 * up its windows' counts and reads nothing: a byte-by-byte loop here cost the measured run about
 * 0.8 s of C2 compilation, and a Jackson tree and a date parse for every final row about 0.6 s
 * more, and a percent or two of its CPU over 8M records.
 */
final class FinalRows {

  /** How a row's {@code event_time_log}, its window's end, reads. */
  static final DateTimeFormatter WINDOW_END =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private static final String FINAL = "\"final\":true";
  private static final String WINDOW_END_FIELD = "\"event_time_log\":\"";
  private static final String COUNT_FIELD = "\"count_result\":";

  private final Path file;

  /** The end of the newest complete window, as a row shows it. */
  private final String completeUpTo;

  private long position;
  private String partialLine = "";
  private long counted;

  FinalRows(Path file, S5Topic topic) {
    this.file = file;
    this.completeUpTo = WINDOW_END.format(Instant.ofEpochMilli(topic.completeUpTo()));
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
  private void addLines(String text) {
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

  private void add(String line) {
    int windowEnd = line.indexOf(WINDOW_END_FIELD) + WINDOW_END_FIELD.length();
    String end = line.substring(windowEnd, windowEnd + completeUpTo.length());
    if (end.compareTo(completeUpTo) <= 0) {
      int count = line.indexOf(COUNT_FIELD) + COUNT_FIELD.length();
      int countEnd = line.indexOf(',', count);
      counted += Long.parseLong(line, count, countEnd, 10);
    }
  }
}
