package dev.tidemark.transforms.replay;

import java.util.List;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Something in a recording that does not fit the replay's settings, found by {@link
 * Replay#explain}, with the values a message needs to say what is wrong and what would fix it. The
 * library says what it found; the words for a user are the caller's.
 */
public sealed interface ReplayWarning {

  /**
   * {@code late} of {@code records} records met a watermark past their window's end: records arrive
   * up to {@code maxBehind} behind the newest before them ({@code inPartition}: in their own
   * partition), the bound is {@code maxOutOfOrderness}, and {@code enoughBound} would have kept
   * every record on time.
   */
  record TooOutOfOrder(
      long late,
      long records,
      Duration maxBehind,
      boolean inPartition,
      Duration maxOutOfOrderness,
      Duration enoughBound)
      implements ReplayWarning {}

  /**
   * {@code count} event times before 1973, that look like seconds or placeholders, went to the dead
   * letters; the first at {@code firstLine}, with {@code firstReason}.
   */
  record BeforeEarliestEventTime(long count, long firstLine, String firstReason)
      implements ReplayWarning {}

  /**
   * {@code count} records too far ahead of the clock went to the dead letters; the first at {@code
   * firstLine}, with {@code firstReason}.
   */
  record AheadOfTheClock(long count, long firstLine, String firstReason) implements ReplayWarning {}

  /**
   * Event time jumped by more than {@code windows} windows {@code count} times; the first at {@code
   * firstLine}, from {@code from} to {@code to}.
   */
  record EventTimeJumps(long windows, long count, long firstLine, Instant from, Instant to)
      implements ReplayWarning {}

  /**
   * Kafka partitions numbered below {@code highest} that never had a record ({@code empty}, at most
   * 50 listed): a plain Kafka source would wait for them forever.
   */
  record EmptyPartitions(List<Integer> empty, int highest) implements ReplayWarning {}

  /** {@code count} of {@code deadLetters} dead letters look written in {@code anotherFormat}. */
  record InAnotherFormat(long count, long deadLetters, String anotherFormat)
      implements ReplayWarning {}

  /** More late records or dead letters than the timeline lists ({@code listed} of each kind). */
  record NotAllListed(int listed) implements ReplayWarning {}
}
