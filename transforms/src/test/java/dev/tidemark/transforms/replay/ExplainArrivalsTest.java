package dev.tidemark.transforms.replay;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.tidemark.transforms.io.LineOrigins;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.replay.ReplayTimeline.Pane;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@code explain} of a recording that knows each record's partition and arrival (a snapshot of a
 * Kafka topic): the live rule decides, with the arrival times as the clock; records are named where
 * they are at their source; partitions without a record are listed.
 */
class ExplainArrivalsTest {

  /** Event times: 2020-09-13T12:26:40Z. */
  private static final long T = 1_600_000_000_000L;

  /** Arrival times. */
  private static final long NOW = 1_700_000_000_000L;

  private static final EventTimeWindowing FIVE_SECONDS =
      EventTimeWindowing.fixed(Duration.standardSeconds(5));

  @Test
  void aPartitionQuietForTheIdleTimeoutLetsTheWindowCloseAndItsNextRecordIsLate() {
    Arrivals topic = new Arrivals("clicks", List.of("0", "1", "2"));
    topic.add(0, 0, "a," + (T + 1000));
    topic.add(100, 1, "a," + (T + 1500));
    topic.add(1000, 0, "a," + (T + 2000));
    topic.add(2000, 0, "not a record");
    topic.add(2500, 0, "a," + (T + 6000));
    // (1) Partition 1 has held the watermark at 0.5 s; 3 s after its record it is idle, and
    // partition 0's 7 s closes [0 s, 5 s).
    topic.add(4000, 0, "a," + (T + 7000));
    // (2) Partition 1 wakes up with a record of the closed window: late.
    topic.add(4500, 1, "a," + (T + 4000));
    topic.add(5000, 1, "a," + (T + 8000));

    ReplayTimeline timeline = explain(topic, Duration.standardSeconds(3));

    assertThat(timeline.late().size(), equalTo(1));
    assertThat(timeline.nameOf(timeline.late().get(0).line()), equalTo("clicks-1@1"));
    assertThat(timeline.late().get(0).watermark(), equalTo(new Instant(T + 7000 - 1001)));
    assertThat(timeline.deadLetters().size(), equalTo(1));
    assertThat(timeline.nameOf(timeline.deadLetters().get(0).line()), equalTo("clicks-0@2"));
    assertThat(timeline.windows().get(0).closedAfterLine(), equalTo(6L)); // clicks-0@4 closed it
    assertThat(
        timeline.panes().stream().filter(Pane::isFinal).map(ExplainArrivalsTest::count).toList(),
        contains("a@0=3", "a@5000=3"));
    assertThat(timeline.warnings(), hasItem(new ReplayWarning.EmptyPartitions(List.of(2), 2)));
    assertThat(
        timeline.partitions().stream().map(p -> p.name() + ":" + p.records()).toList(),
        contains("0:4", "1:3", "2:0"));
  }

  @Test
  void aLongerIdleTimeoutKeepsTheSameRecordOnTime() {
    Arrivals topic = new Arrivals("clicks", List.of("0", "1"));
    topic.add(0, 0, "a," + (T + 1000));
    topic.add(100, 1, "a," + (T + 1500));
    topic.add(2500, 0, "a," + (T + 6000));
    topic.add(4000, 0, "a," + (T + 7000));
    topic.add(4500, 1, "a," + (T + 4000));

    ReplayTimeline timeline = explain(topic, Duration.standardSeconds(10));

    assertThat(timeline.late().size(), equalTo(0));
    assertThat(
        timeline.panes().stream().filter(Pane::isFinal).map(ExplainArrivalsTest::count).toList(),
        contains("a@0=3", "a@5000=2"));
  }

  private static ReplayTimeline explain(Arrivals topic, Duration idleTimeout) {
    return Replay.of(topic, CsvEventFormat.keyAndTime())
        .withMaxOutOfOrderness(Duration.standardSeconds(1))
        .withArrivalClock(idleTimeout)
        .explain(FIVE_SECONDS, new Instant(T).plus(Duration.standardDays(1)));
  }

  private static String count(Pane pane) {
    return pane.key() + "@" + (pane.windowStart().getMillis() - T) + "=" + pane.count();
  }

  /** Records of a topic in the order they arrived, each with its partition, offset and arrival. */
  private static final class Arrivals implements RecordedLines, LineOrigins {
    private final String topic;
    private final List<String> partitions;
    private final List<String> values = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final List<Integer> partitionOfLine = new ArrayList<>();
    private final List<Long> arrivals = new ArrayList<>();
    private final long[] nextOffset;

    Arrivals(String topic, List<String> partitions) {
      this.topic = topic;
      this.partitions = partitions;
      this.nextOffset = new long[partitions.size()];
    }

    void add(long arrivedAfterMillis, int partition, String value) {
      values.add(value);
      partitionOfLine.add(partition);
      arrivals.add(NOW + arrivedAfterMillis);
      names.add(topic + "-" + partition + "@" + nextOffset[partition]++);
    }

    @Override
    public Iterator<String> open() {
      return values.iterator();
    }

    @Override
    public String describe() {
      return topic;
    }

    @Override
    public Optional<LineOrigins> origins() {
      return Optional.of(this);
    }

    @Override
    public List<String> partitions() {
      return partitions;
    }

    @Override
    public String partitionOf(long line) {
      return String.valueOf(partitionOfLine.get((int) line - 1));
    }

    @Override
    public Instant arrivalOf(long line) {
      return new Instant(arrivals.get((int) line - 1));
    }

    @Override
    public String nameOf(long line) {
      return names.get((int) line - 1);
    }
  }
}
