package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.replay.ReplayTimeline.PartitionLine;
import dev.tidemark.transforms.replay.ReplayTimeline.Step;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * What {@code explain} keeps of one partition of a recording: how many records it had, and the
 * steps of its watermark, thinned evenly once there are more than {@code maxSteps} of them (every
 * other step goes, then every other of those, ...), so a long recording keeps a line of the same
 * shape in bounded memory.
 */
final class PartitionTrack {
  private final String name;
  private final int maxSteps;
  private final List<Step> steps = new ArrayList<>();
  private long records;
  private long stride = 1;
  private @Nullable Instant last;

  PartitionTrack(String name, int maxSteps) {
    this.name = name;
    this.maxSteps = maxSteps;
  }

  /**
   * A record of the partition, at line {@code line}, after which its watermark is {@code
   * watermark}.
   */
  void moved(long line, Instant watermark) {
    records++;
    if (watermark.equals(last) || line % stride != 0) {
      return;
    }
    last = watermark;
    steps.add(new Step(line, watermark));
    if (steps.size() > maxSteps) {
      stride *= 2;
      steps.removeIf(step -> step.line() % stride != 0);
    }
  }

  /** The partition's name, as the recording's partition field gives it. */
  String name() {
    return name;
  }

  /** How many records the partition had. */
  long records() {
    return records;
  }

  /** The partition's line of the timeline. */
  PartitionLine line() {
    return new PartitionLine(name, records, List.copyOf(steps));
  }
}
