package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.replay.ReplayTimeline.Point;
import java.util.ArrayList;
import java.util.List;

/**
 * The points of one kind that a timeline keeps for its plot, and how many there were: every one up
 * to a limit, then either an even sample in arrival order (every 2nd, 4th, ... line, so the sample
 * stays spread over the whole recording) or the first ones (so the plot shows the records its list
 * names). Not thread-safe.
 */
final class PointSample {

  private final int limit;
  private final boolean evenly;
  private final List<Point> kept = new ArrayList<>();
  private long stride = 1;
  private long offered;

  private PointSample(int limit, boolean evenly) {
    this.limit = limit;
    this.evenly = evenly;
  }

  /** At most about {@code limit} points, thinned evenly when there are more. */
  static PointSample evenly(int limit) {
    return new PointSample(limit, true);
  }

  /** The first {@code limit} points. */
  static PointSample first(int limit) {
    return new PointSample(limit, false);
  }

  /** Counts {@code point}, and keeps it if the sample has room for it. */
  void offer(Point point) {
    offered++;
    if (!evenly) {
      if (kept.size() < limit) {
        kept.add(point);
      }
      return;
    }
    if (point.line() % stride != 0) {
      return;
    }
    kept.add(point);
    if (kept.size() > limit) {
      stride *= 2;
      kept.removeIf(keptPoint -> keptPoint.line() % stride != 0);
    }
  }

  /** How many points were offered. */
  long offered() {
    return offered;
  }

  /** The points kept, in arrival order. */
  List<Point> kept() {
    return kept;
  }
}
