package dev.tidemark.transforms.replay;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.instanceOf;

import dev.tidemark.transforms.io.FileLines;
import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.replay.ReplayWarning.AheadOfTheClock;
import dev.tidemark.transforms.replay.ReplayWarning.BeforeEarliestEventTime;
import dev.tidemark.transforms.replay.ReplayWarning.EventTimeJumps;
import dev.tidemark.transforms.replay.ReplayWarning.TooOutOfOrder;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain}'s warnings name what is wrong and a value that fixes it: the bound it suggests
 * keeps every record on time (and one second less does not); event times in seconds, too far ahead
 * of the clock, or jumping far are each pointed out; a clean recording gets no warning.
 */
class ExplainWarningsTest {

  private static final EventTimeWindowing ONE_SECOND =
      EventTimeWindowing.fixed(Duration.standardSeconds(1));

  /** The clock the recordings are explained by: every event time in them is before it but one. */
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path directory;

  @Test
  void theSuggestedBoundKeepsEveryRecordOnTime() {
    RecordedLines lines =
        GeneratedLines.records(3000)
            .withKeys(3)
            .withOutOfOrderness(Duration.millis(1500))
            .withLateFraction(0.03)
            .withSeed(41);
    ReplayTimeline tooTight = explain(lines, Duration.millis(500));
    assertThat(tooTight.late().size(), greaterThan(10));
    assertThat(tooTight.warnings(), contains(instanceOf(TooOutOfOrder.class)));
    TooOutOfOrder tooOutOfOrder = (TooOutOfOrder) tooTight.warnings().get(0);
    assertThat(tooOutOfOrder.late(), equalTo((long) tooTight.late().size()));
    assertThat(tooOutOfOrder.maxOutOfOrderness(), equalTo(Duration.millis(500)));
    long seconds = tooOutOfOrder.enoughBound().getStandardSeconds();

    ReplayTimeline enough = explain(lines, Duration.standardSeconds(seconds));
    assertThat(enough.late(), empty());
    assertThat(
        "no LATE panes",
        enough.panes().stream().filter(pane -> pane.index() > 0).count(),
        equalTo(0L));
    assertThat(enough.warnings(), empty());
    ReplayTimeline oneSecondLess = explain(lines, Duration.standardSeconds(seconds - 1));
    assertThat(oneSecondLess.warnings(), hasSize(1));
  }

  @Test
  void secondsFutureAndJumpsArePointedOut() throws Exception {
    ReplayTimeline timeline =
        explain(
            file(
                "k,1580896327000",
                "k,1580896327500",
                "k,1580896327",
                "k,4102444800000",
                "k,1580982727000"),
            Duration.standardSeconds(1));
    assertThat(
        timeline.warnings(),
        contains(
            instanceOf(BeforeEarliestEventTime.class),
            instanceOf(AheadOfTheClock.class),
            equalTo(
                new EventTimeJumps(
                    100, 1, 5, new Instant(1580896327500L), new Instant(1580982727000L)))));
    BeforeEarliestEventTime seconds = (BeforeEarliestEventTime) timeline.warnings().get(0);
    assertThat(seconds.count(), equalTo(1L));
    assertThat(seconds.firstLine(), equalTo(3L));
    AheadOfTheClock ahead = (AheadOfTheClock) timeline.warnings().get(1);
    assertThat(ahead.count(), equalTo(1L));
    assertThat(ahead.firstLine(), equalTo(4L));
    assertThat(ahead.firstReason(), containsString("ahead of the clock (" + NOW + ")"));
  }

  @Test
  void aCleanRecordingHasNoWarnings() throws Exception {
    ReplayTimeline timeline =
        explain(
            file(
                "a,1600000001000",
                "b,1600000001500",
                "a,1600000002100",
                "a,1600000001900",
                "b,1600000003000",
                "a,1600000003100"),
            Duration.millis(500));
    assertThat(timeline.warnings(), empty());
    assertThat(timeline.late(), empty());
    assertThat(timeline.windows(), hasSize(3));
    assertThat(
        "[1 s, 2 s) closes after line 5, whose 3 s moved the watermark to 2.499 s, past 2 s",
        timeline.windows().get(0).closedAfterLine(),
        equalTo(5L));
    assertThat(timeline.windows().get(2).closedAfterLine(), equalTo(ReplayTimeline.AT_THE_END));
  }

  private static ReplayTimeline explain(RecordedLines lines, Duration maxOutOfOrderness) {
    return Replay.of(lines, CsvEventFormat.keyAndTime())
        .withMaxOutOfOrderness(maxOutOfOrderness)
        .explain(ONE_SECOND, NOW);
  }

  private RecordedLines file(String... lines) throws Exception {
    Path file = directory.resolve("recording.csv");
    Files.write(file, List.of(lines));
    return FileLines.matching(file.toString());
  }
}
