package dev.tidemark.transforms.io.kafka;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThan;

import dev.tidemark.transforms.watermark.Watermarks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.io.kafka.TimestampPolicy.PartitionContext;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The Kafka policy without a pipeline: a fake reader over N partitions, a frozen clock, and the
 * reader's watermark as KafkaIO computes it (the minimum over its partitions' policies).
 */
class IdleAwareTimestampPolicyTest {

  private static final Duration OUT_OF_ORDERNESS = Duration.standardSeconds(1);
  private static final Duration IDLE = Duration.standardSeconds(5);
  private static final long BACKLOG_UNKNOWN = UnboundedReader.BACKLOG_UNKNOWN;

  /** Scenario S1's first event; replayed history, far behind the wall clock. */
  private static final Instant HISTORY = new Instant(1586489566000L);

  /** The frozen wall clock at the start of each test. */
  private static final Instant START = new Instant(1_800_000_000_000L);

  private static IdleAwareTimestampPolicyFactory<String, Long> factory() {
    return IdleAwareTimestampPolicyFactory.<String, Long>byEventTime(
            record ->
                record.getKV().getValue() == null ? null : new Instant(record.getKV().getValue()))
        .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
        .withIdleTimeout(IDLE);
  }

  @Test
  void inOrderEventsMoveTheWatermarkToMaxMinusBound() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    // (1) Before any record, with data waiting, the watermark is at the minimum.
    assertThat(reader.watermark(START, 5), equalTo(Watermarks.MIN));
    // (2) Each record moves it to maxEventTime - 1 s - 1 ms.
    reader.read(0, HISTORY, START);
    assertThat(reader.watermark(START, 4), equalTo(HISTORY.minus(1001)));
    reader.read(0, HISTORY.plus(3000), START);
    assertThat(reader.watermark(START, 3), equalTo(HISTORY.plus(3000 - 1001)));
  }

  @Test
  void theCapAtTheClockIsTakenAtTheClockNotAtTheBacklogsMeasurement() {
    // (1) A live record, its event time the clock's.
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    reader.read(0, START, START);
    // (2) The backlog was measured a second ago, as the reader's probe measures it once a second:
    // the watermark is the record's minus the bound, not capped at that measurement minus the
    // bound, which would hold every window a second longer.
    reader.measuredEarlierBy(Duration.standardSeconds(1));
    assertThat(reader.watermark(START, 0), equalTo(START.minus(1001)));
  }

  @Test
  void outOfOrderEventsNeverMoveTheWatermarkBack() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    reader.read(0, HISTORY.plus(5000), START);
    Instant before = reader.watermark(START, 2);
    // (1) An event 4 s older than the newest one: the timestamp is its own, the watermark stays.
    assertThat(reader.read(0, HISTORY.plus(1000), START), equalTo(HISTORY.plus(1000)));
    assertThat(reader.watermark(START, 1), equalTo(before));
  }

  @Test
  void partitionThatNeverHadARecordDoesNotHoldBackItsSiblings() {
    // (1) Scenario S4: ten partitions, every record goes to partition 0.
    FakeReader reader = new FakeReader(factory(), 10, Optional.empty());
    reader.read(0, HISTORY, START);
    reader.read(0, HISTORY.plus(23_000), START);
    // (2) Before the empty partitions have been quiet for the idle timeout, they hold.
    assertThat(reader.watermark(START.plus(1000), 0), equalTo(Watermarks.MIN));
    // (3) After it, the reader's watermark is partition 0's own: the nine empty ones follow it.
    Instant later = START.plus(IDLE).plus(1);
    assertThat(
        reader.watermarkWithBacklogs(later, backlogs(10, 0, 3)),
        equalTo(HISTORY.plus(23_000 - 1001)));
    // (4) And they keep following it while partition 0 moves on.
    reader.read(0, HISTORY.plus(40_000), later);
    assertThat(
        reader.watermarkWithBacklogs(later, backlogs(10, 0, 2)),
        equalTo(HISTORY.plus(40_000 - 1001)));
  }

  @Test
  void idlePartitionWithDataDoesNotHoldBackAnActiveSibling() {
    FakeReader reader = new FakeReader(factory(), 2, Optional.empty());
    // (1) Partition 1 had one old record and has been caught up since.
    reader.read(1, HISTORY, START);
    reader.read(0, HISTORY, START);
    // (2) Partition 0 replays history much faster than real time and still has a backlog.
    Instant later = START.plus(IDLE).plus(1000);
    reader.read(0, HISTORY.plus(3_600_000), later);
    // (3) The reader follows partition 0, not partition 1's pace from its last record.
    assertThat(
        reader.watermarkWithBacklogs(later, new long[] {100, 0}),
        equalTo(HISTORY.plus(3_600_000 - 1001)));
  }

  @Test
  void idleAfterDataAdvancesAtTheWallClocksPaceFromTheLastRecord() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    // (1) A replayed burst ends: the last event is from 2020, read at START.
    reader.read(0, HISTORY, START);
    // (2) Quiet for less than the idle timeout: no advance.
    assertThat(reader.watermark(START.plus(4999), 0), equalTo(HISTORY.minus(1001)));
    // (3) Quiet for the idle timeout: event time has moved as far as the wall clock since.
    assertThat(reader.watermark(START.plus(5000), 0), equalTo(HISTORY.minus(1001).plus(5000)));
    assertThat(reader.watermark(START.plus(7000), 0), equalTo(HISTORY.minus(1001).plus(7000)));
    // (4) It does not jump to the wall clock: a record that resumes the replay from where it
    // stopped is still on time (its event time is not behind the watermark).
    Instant resumed = HISTORY.plus(6000);
    assertThat(reader.watermark(START.plus(7000), 0), lessThan(resumed));
  }

  @Test
  void liveDataFollowsTheWallClockWhenIdle() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    // (1) Live data: event time equals the wall clock at arrival.
    reader.read(0, START, START);
    // (2) After the idle timeout the watermark tracks now - bound, closing every past window.
    Instant now = START.plus(Duration.standardMinutes(3));
    assertThat(reader.watermark(now, 0), equalTo(now.minus(1001)));
  }

  @Test
  void unknownOrPositiveBacklogIsNeverIdle() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    reader.read(0, HISTORY, START);
    Instant muchLater = START.plus(Duration.standardHours(1));
    // (1) Backlog unknown (offsets not fetched yet): hold.
    assertThat(reader.watermark(muchLater, BACKLOG_UNKNOWN), equalTo(HISTORY.minus(1001)));
    // (2) Unread records: hold, they may be older than any idle guess.
    assertThat(reader.watermark(muchLater, 7), equalTo(HISTORY.minus(1001)));
    // (3) Caught up: advance.
    assertThat(reader.watermark(muchLater, 0), equalTo(HISTORY.minus(1001).plus(3_600_000)));
  }

  @Test
  void aTimeTheBacklogCouldNotBeMeasuredInIsNotQuietTime() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    reader.read(0, HISTORY, START);
    assertThat(reader.watermark(START.plus(1000), 0), equalTo(HISTORY.minus(1001)));
    // (1) The broker is down for 10 s: KafkaIO measures no backlog until it is back. A record sent
    // meanwhile waits in its producer.
    Instant back = START.plus(11_000);
    reader.outOfReachUntil(back);
    // (2) The first measurement after the gap finds the partition caught up, quiet for 11 s since
    // the last record, but 10 s of that were out of sight: no advance.
    assertThat(reader.watermark(back, 0), equalTo(HISTORY.minus(1001)));
    // (3) The waiting record arrives a second later, and is on time.
    Instant waited = HISTORY.plus(500);
    assertThat(waited, greaterThan(reader.watermark(back.plus(1000), 0)));
    // (4) Quiet, and seen to be, for the idle timeout from the measurement after the gap: advance.
    assertThat(reader.watermark(back.plus(4999), 0), equalTo(HISTORY.minus(1001)));
    assertThat(reader.watermark(back.plus(5000), 0), equalTo(HISTORY.minus(1001).plus(5000)));
  }

  @Test
  void recordReadAfterTheBacklogCheckKeepsThePartitionActive() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    reader.read(0, HISTORY, START);
    // (1) The backlog was measured as 0 at START + 10 s; a record arrived at START + 11 s.
    reader.read(0, HISTORY.plus(100), START.plus(11_000));
    // (2) As of the measurement the partition was not quiet since its last record: no advance.
    assertThat(reader.watermark(START.plus(10_000), 0), equalTo(HISTORY.plus(100 - 1001)));
  }

  @Test
  void allEmptyPartitionsFollowTheWallClockAfterTheIdleTimeout() {
    FakeReader reader = new FakeReader(factory(), 3, Optional.empty());
    // (1) Verifiably empty, but not quiet long enough yet: hold.
    assertThat(reader.watermark(START.plus(4999), 0), equalTo(Watermarks.MIN));
    // (2) Empty and quiet for the idle timeout: a record produced later is newer than now.
    Instant now = START.plus(5000);
    assertThat(reader.watermark(now, 0), equalTo(now.minus(1001)));
  }

  @Test
  void restoreContinuesFromThePreviousWatermark() {
    Instant previous = HISTORY.plus(10_000);
    FakeReader reader = new FakeReader(factory(), 1, Optional.of(previous));
    // (1) Never below the previous watermark, even with an older record and a backlog.
    reader.read(0, HISTORY, START);
    assertThat(reader.watermark(START, 10), equalTo(previous));
    // (2) Quiet after the restore: advances at the wall clock's pace from there, not from now.
    assertThat(reader.watermark(START.plus(6000), 0), equalTo(previous.plus(6000)));
  }

  @Test
  void extremeTimestampsSaturateInsteadOfOverflowing() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    // (1) A record stamped Long.MIN_VALUE is clamped to Beam's minimum; the watermark stays there.
    assertThat(reader.read(0, new Instant(Long.MIN_VALUE), START), equalTo(Watermarks.MIN));
    assertThat(reader.watermark(START, 1), equalTo(Watermarks.MIN));
    // (2) A record stamped Long.MAX_VALUE is far ahead of the clock: it carries the current
    // watermark and moves nothing; the parse step makes it a dead letter.
    assertThat(reader.read(0, new Instant(Long.MAX_VALUE), START), equalTo(Watermarks.MIN));
    assertThat(reader.watermark(START, 1), equalTo(Watermarks.MIN));
  }

  @Test
  void recordFarInTheFutureDoesNotMoveTheWatermark() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    Instant farFuture = new Instant(253402300799000L); // 9999-12-31T23:59:59Z
    reader.read(0, HISTORY, START);
    assertThat(reader.watermark(START, 1), equalTo(HISTORY.minus(1001)));
    // (1) The record from a wrong clock carries the current watermark instead of its own time.
    assertThat(reader.read(0, farFuture, START), equalTo(HISTORY.minus(1001)));
    // (2) The watermark is still the one the real records allow.
    assertThat(reader.watermark(START, 1), equalTo(HISTORY.minus(1001)));
  }

  @Test
  void watermarkNeverPassesTheClockMinusTheBound() {
    // Beam's CustomTimestampPolicyWithLimitedDelayTest case: records at now-200 s ... now-100 s
    // and one at now+100 s, with a 60 s bound.
    Duration bound = Duration.standardSeconds(60);
    FakeReader reader = new FakeReader(factory().withMaxOutOfOrderness(bound), 1, Optional.empty());
    Instant now = START;
    // (1) Records behind the clock: the watermark is the newest minus the bound.
    for (long back = 200; back >= 100; back -= 10) {
      reader.read(0, now.minus(Duration.standardSeconds(back)), now);
    }
    assertThat(
        reader.watermark(now, 1), equalTo(now.minus(Duration.standardSeconds(160)).minus(1)));
    // (2) A record 100 s ahead of the clock is within the default skew of 15 min: it is admitted,
    // but the watermark stops at the clock minus the bound.
    Instant ahead = now.plus(Duration.standardSeconds(100));
    assertThat(reader.read(0, ahead, now), equalTo(ahead));
    assertThat(reader.watermark(now, 1), equalTo(now.minus(bound)));
    // (3) With a 60 s skew the same record is not admitted: it carries the current watermark.
    FakeReader strict =
        new FakeReader(
            factory().withMaxOutOfOrderness(bound).withMaxFutureSkew(Duration.standardSeconds(60)),
            1,
            Optional.empty());
    strict.read(0, now.minus(Duration.standardSeconds(100)), now);
    Instant before = strict.watermark(now, 1);
    assertThat(strict.read(0, ahead, now), equalTo(before));
    assertThat(strict.watermark(now, 1), equalTo(before));
  }

  @Test
  void recordWithoutEventTimeCarriesTheCurrentWatermarkAndMovesNothing() {
    FakeReader reader = new FakeReader(factory(), 1, Optional.empty());
    reader.read(0, HISTORY.plus(5000), START);
    Instant watermark = reader.watermark(START, 1);
    // (1) The event-time function returns null: the record carries the watermark.
    assertThat(reader.read(0, null, START.plus(1)), equalTo(watermark));
    // (2) It did not count as activity: the idle timeout still runs from the last real record.
    assertThat(reader.watermark(START.plus(5000), 0), equalTo(watermark.plus(5000)));
  }

  @Test
  void reCreatedPolicyContinuesFromItsPartitionsProgress() {
    IdleAwareTimestampPolicyFactory<String, Long> factory = factory();
    FakeReader first = new FakeReader(factory, 1, Optional.empty());
    first.read(0, HISTORY, START);
    // (1) The runner closes the reader and creates a new one from the same source (a checkpoint).
    FakeReader second =
        new FakeReader(factory, 1, Optional.of(first.watermark(START.plus(1000), 1)));
    // (2) The quiet period still counts from the last record the first reader read.
    assertThat(second.watermark(START.plus(5000), 0), equalTo(HISTORY.minus(1001).plus(5000)));
  }

  private static long[] backlogs(int partitions, int withData, long backlog) {
    long[] backlogs = new long[partitions];
    backlogs[withData] = backlog;
    return backlogs;
  }

  /**
   * What KafkaIO's reader does with the policies, minus Kafka: it measures every partition's
   * backlog once a second, and asks each policy for its watermark with the last measurement.
   */
  private static final class FakeReader {
    private final List<IdleAwareTimestampPolicy<String, Long>> policies = new ArrayList<>();
    private long offset;
    private @Nullable Instant lastCheck;
    private Duration measurementAge = Duration.ZERO;

    FakeReader(
        IdleAwareTimestampPolicyFactory<String, Long> factory,
        int partitions,
        Optional<Instant> previousWatermark) {
      for (int p = 0; p < partitions; p++) {
        policies.add(
            (IdleAwareTimestampPolicy<String, Long>)
                factory.createTimestampPolicy(
                    new TopicPartition("orders", p), previousWatermark, START));
      }
    }

    Instant read(int partition, Instant eventTime, Instant now) {
      KafkaRecord<String, Long> record =
          new KafkaRecord<>(
              "orders",
              partition,
              offset++,
              now.getMillis(),
              KafkaTimestampType.CREATE_TIME,
              null,
              "key",
              eventTime == null ? null : eventTime.getMillis());
      return policies.get(partition).getTimestampForRecord(record, now);
    }

    Instant watermark(Instant now, long backlogOfEveryPartition) {
      long[] backlogs = new long[policies.size()];
      java.util.Arrays.fill(backlogs, backlogOfEveryPartition);
      return watermarkWithBacklogs(now, backlogs);
    }

    /** The broker cannot be asked until {@code back}: no backlog is measured before then. */
    void outOfReachUntil(Instant back) {
      lastCheck = back;
    }

    /**
     * The reader's watermark as of a backlog measurement at {@code now}, after the measurements of
     * every second since the last one, all with the same {@code backlogs}.
     */
    Instant watermarkWithBacklogs(Instant now, long[] backlogs) {
      if (lastCheck != null) {
        for (Instant check = lastCheck.plus(1000); check.isBefore(now); check = check.plus(1000)) {
          watermarkAt(check, backlogs);
        }
      }
      if (lastCheck == null || now.isAfter(lastCheck)) {
        lastCheck = now;
      }
      return watermarkAt(now, backlogs);
    }

    /** From now on, each backlog was measured {@code age} before the watermark is asked for. */
    void measuredEarlierBy(Duration age) {
      measurementAge = age;
    }

    private Instant checkedAt(Instant now) {
      return now.minus(measurementAge);
    }

    private Instant watermarkAt(Instant now, long[] backlogs) {
      Instant min = Watermarks.MAX;
      for (int p = 0; p < policies.size(); p++) {
        min =
            Watermarks.earliest(
                min, policies.get(p).getWatermark(context(backlogs[p], checkedAt(now)), now));
      }
      return min;
    }
  }

  private static PartitionContext context(long backlog, Instant checkedAt) {
    return new PartitionContext() {
      @Override
      public long getMessageBacklog() {
        return backlog;
      }

      @Override
      public Instant getBacklogCheckTime() {
        return checkedAt;
      }
    };
  }
}
