package dev.tidemark.pipelines;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What {@code count} must output for {@code key,epochMillis} lines replayed in order, computed
 * directly: each line meets the watermark {@code newest event time so far - bound - 1 ms}; it is
 * late when its window's end + allowed lateness is before that.
 */
final class CsvReplayPrediction {

  /** "key,windowStart" -> count of the window's final pane. */
  final Map<String, Long> finalCounts = new TreeMap<>();

  final Set<String> late = new HashSet<>();
  final Set<String> dead = new HashSet<>();

  private CsvReplayPrediction() {}

  static CsvReplayPrediction of(
      List<String> lines, long window, long outOfOrderness, long allowedLateness) {
    CsvReplayPrediction prediction = new CsvReplayPrediction();
    Long maxEventTime = null;
    for (String line : lines) {
      String[] fields = line.split(",");
      long eventTime;
      try {
        if (fields.length != 2) {
          throw new NumberFormatException();
        }
        eventTime = Long.parseLong(fields[1]);
      } catch (NumberFormatException e) {
        prediction.dead.add(line);
        continue;
      }
      long watermark = maxEventTime == null ? Long.MIN_VALUE : maxEventTime - outOfOrderness - 1;
      maxEventTime = maxEventTime == null ? eventTime : Math.max(maxEventTime, eventTime);
      long windowStart = eventTime - Math.floorMod(eventTime, window);
      long expiresAt = windowStart + window - 1 + allowedLateness;
      if (expiresAt < watermark) {
        prediction.late.add(line);
      } else {
        prediction.finalCounts.merge(fields[0] + "," + windowStart, 1L, Long::sum);
      }
    }
    return prediction;
  }
}
