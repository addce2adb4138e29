package dev.tidemark.pipelines.explain;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.replay.ReplayWarning;
import java.util.List;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@code explain} says each warning the replay finds in tidemark's own words: what is wrong, and
 * the option and value that would fix it.
 */
class WarningTextTest {

  @Test
  void eachWarningNamesWhatIsWrongAndWhatFixesIt() {
    assertThat(
        WarningText.of(
            new ReplayWarning.TooOutOfOrder(
                7,
                100,
                Duration.millis(2500),
                true,
                Duration.standardSeconds(1),
                Duration.standardSeconds(3))),
        equalTo(
            "7 of 100 records met a watermark past their window's end: records arrive up to"
                + " 2500ms behind the newest one before them in their partition, and"
                + " --maxOutOfOrderness is 1s; --maxOutOfOrderness=3s would have kept every"
                + " record on time"));
    assertThat(
        WarningText.of(new ReplayWarning.BeforeEarliestEventTime(2, 3, "why")),
        equalTo(
            "event times before 1973, that look like seconds or placeholders, sent to the dead"
                + " letters: 2 (line 3: why)"));
    assertThat(
        WarningText.of(new ReplayWarning.AheadOfTheClock(1, 4, "why")),
        equalTo(
            "records too far ahead of the clock, sent to the dead letters: 1 (line 4: why); if"
                + " the clock is right, fix the producer's; if the data is in the future on"
                + " purpose, raise --maxFutureSkew"));
    assertThat(
        WarningText.of(
            new ReplayWarning.EventTimeJumps(
                100, 2, 5, new Instant(1_000_000_000_000L), new Instant(1_000_086_400_000L))),
        equalTo(
            "jumps in event time of more than 100 windows: 2 (line 5 jumps from"
                + " 2001-09-09T01:46:40.000Z to 2001-09-10T01:46:40.000Z (24h)); each jump closes"
                + " every window before it at once, and records of the old times that follow are"
                + " late"));
    assertThat(
        WarningText.of(new ReplayWarning.EmptyPartitions(List.of(0, 2), 3)),
        equalTo(
            "partitions that never receive data: 0, 2 (partitions go up to 3); a plain Kafka"
                + " source keeps the watermark at its minimum for them and no window ever fires;"
                + " tidemark does not wait for a partition that never had a record"));
    assertThat(
        WarningText.of(new ReplayWarning.InAnotherFormat(3, 4, "JSON objects")),
        equalTo("3 of 4 dead letters look like JSON objects: is the format right?"));
    assertThat(
        WarningText.of(new ReplayWarning.NotAllListed(5000)),
        equalTo("only the first 5000 late records and dead letters each are listed"));
  }
}
