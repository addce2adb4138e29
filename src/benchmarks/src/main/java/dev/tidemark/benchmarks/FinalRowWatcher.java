package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a job's rows file as a consumer downstream would, every 50 ms: for each (key, window), how
 * many rows came and when its final row was first there (a hand-written job's only row is its final
 * one).
 */
final class FinalRowWatcher {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /** One (key, window) as the watcher saw it. */
  static final class Window {
    final long end;
    int rows;
    long finalSeenAt = -1;

    Window(long end) {
      this.end = end;
    }
  }

  private final Path rows;
  private final Map<String, Window> windows = new HashMap<>();
  private long offset;
  private String partial = "";

  FinalRowWatcher(Path rows) {
    this.rows = rows;
  }

  /** Reads what has been appended since the last look; {@code now} is when it looks. */
  synchronized void look(long now) throws IOException {
    if (!Files.exists(rows)) {
      return;
    }
    try (RandomAccessFile file = new RandomAccessFile(rows.toFile(), "r")) {
      long length = file.length();
      if (length <= offset) {
        return;
      }
      byte[] added = new byte[(int) (length - offset)];
      file.seek(offset);
      file.readFully(added);
      offset = length;
      String text = partial + new String(added, StandardCharsets.UTF_8);
      int last = text.lastIndexOf('\n');
      partial = text.substring(last + 1);
      for (String line : text.substring(0, last + 1).split("\n")) {
        if (!line.isBlank()) {
          take(JSON.readTree(line), now);
        }
      }
    }
  }

  Map<String, Window> windows() {
    return windows;
  }

  private void take(JsonNode row, long now) {
    String time = row.path("event_time_log").asText();
    long end = LocalDateTime.parse(time, SECONDS).toInstant(ZoneOffset.UTC).toEpochMilli();
    String key = row.path("index_name").asText() + "|" + row.path("op_type").asText() + "|" + end;
    Window window = windows.computeIfAbsent(key, k -> new Window(end));
    window.rows++;
    if (window.finalSeenAt < 0 && row.path("final").asBoolean(true)) {
      window.finalSeenAt = now;
    }
  }
}
