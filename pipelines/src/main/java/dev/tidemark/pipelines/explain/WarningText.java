package dev.tidemark.pipelines.explain;

import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayWarning;
import dev.tidemark.transforms.replay.ReplayWarning.AheadOfTheClock;
import dev.tidemark.transforms.replay.ReplayWarning.BeforeEarliestEventTime;
import dev.tidemark.transforms.replay.ReplayWarning.EmptyPartitions;
import dev.tidemark.transforms.replay.ReplayWarning.EventTimeJumps;
import dev.tidemark.transforms.replay.ReplayWarning.InAnotherFormat;
import dev.tidemark.transforms.replay.ReplayWarning.NotAllListed;
import dev.tidemark.transforms.replay.ReplayWarning.TooOutOfOrder;
import dev.tidemark.transforms.watermark.DurationText;
import java.util.List;
import java.util.stream.Collectors;
import org.joda.time.Duration;

/**
 * What {@code explain} says of each {@link ReplayWarning}: what is wrong, in the words of
 * tidemark's options, and the value that would fix it.
 */
public final class WarningText {

  private WarningText() {}

  /** The warnings of {@code timeline}, in the order it found them. */
  public static List<String> of(ReplayTimeline timeline) {
    return timeline.warnings().stream().map(WarningText::of).toList();
  }

  /** What {@code explain} says of {@code warning}. */
  public static String of(ReplayWarning warning) {
    if (warning instanceof TooOutOfOrder w) {
      return w.late()
          + " of "
          + w.records()
          + " records met a watermark past their window's end: records arrive up to "
          + DurationText.asOption(w.maxBehind())
          + " behind the newest one before them"
          + (w.inPartition() ? " in their partition" : "")
          + ", and --maxOutOfOrderness is "
          + DurationText.asOption(w.maxOutOfOrderness())
          + "; --maxOutOfOrderness="
          + w.enoughBound().getStandardSeconds()
          + "s would have kept every record on time";
    }
    if (warning instanceof BeforeEarliestEventTime w) {
      return "event times before 1973, that look like seconds or placeholders, sent to the dead"
          + " letters: "
          + countAndFirst(w.count(), w.firstLine(), w.firstReason());
    }
    if (warning instanceof AheadOfTheClock w) {
      return "records too far ahead of the clock, sent to the dead letters: "
          + countAndFirst(w.count(), w.firstLine(), w.firstReason())
          + "; if the clock is right, fix the producer's; if the data is in the future on"
          + " purpose, raise --maxFutureSkew";
    }
    if (warning instanceof EventTimeJumps w) {
      return "jumps in event time of more than "
          + w.windows()
          + " windows: "
          + w.count()
          + " (line "
          + w.firstLine()
          + " jumps from "
          + w.from()
          + " to "
          + w.to()
          + " ("
          + DurationText.asOption(new Duration(Math.abs(w.to().getMillis() - w.from().getMillis())))
          + ")); each jump closes every window before it at once, and records of the old"
          + " times that follow are late";
    }
    if (warning instanceof EmptyPartitions w) {
      return "partitions that never receive data: "
          + w.empty().stream().map(String::valueOf).collect(Collectors.joining(", "))
          + " (partitions go up to "
          + w.highest()
          + "); a plain Kafka source keeps the watermark at its minimum for them and no"
          + " window ever fires; tidemark does not wait for a partition that never had a"
          + " record";
    }
    if (warning instanceof InAnotherFormat w) {
      return w.count()
          + " of "
          + w.deadLetters()
          + " dead letters look like "
          + w.anotherFormat()
          + ": is the format right?";
    }
    if (warning instanceof NotAllListed w) {
      return "only the first " + w.listed() + " late records and dead letters each are listed";
    }
    throw new IllegalArgumentException("no text for " + warning);
  }

  /** How many dead letters of a kind, and the first: {@code 2 (line 3: why)}. */
  private static String countAndFirst(long count, long firstLine, String firstReason) {
    return count + " (line " + firstLine + ": " + firstReason + ")";
  }
}
