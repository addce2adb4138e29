package dev.tidemark.pipelines.explain;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThan;

import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayTimeline.Kind;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** {@code explain}'s text keeps its accounts true when it lists fewer records than there are. */
class TimelineTextTest {

  @Test
  void beyondTheListedLateRecordsAndDeadLettersTheCountsStayTrueAndAddUp() {
    EventTimeWindowing windowing = EventTimeWindowing.fixed(Duration.standardSeconds(1));
    ReplayTimeline timeline =
        Replay.of(
                GeneratedLines.records(60_000)
                    .withKeys(3)
                    .withLateFraction(0.1)
                    .withBadFraction(0.1)
                    .withSeed(5),
                CsvEventFormat.keyAndTime())
            .withMaxOutOfOrderness(Duration.standardSeconds(1))
            .explain(windowing, Instant.now());
    assertThat("more late records than listed", timeline.count(Kind.LATE), greaterThan(5_000L));
    assertThat("more dead letters than listed", timeline.count(Kind.DEAD), greaterThan(5_000L));

    String text = text(timeline, windowing);

    assertThat(
        text,
        containsString(
            "late records, whose window had expired when they arrived ("
                + timeline.count(Kind.LATE)
                + "; the first 5000 listed):"));
    ReplayTimeline.LateLine first = timeline.late().get(0);
    assertThat(
        "a late record's lateness in the words of the run's late line (lateByMillis)",
        text,
        containsString(
            "met watermark "
                + first.watermark()
                + ", late by "
                + first.lateBy().getMillis()
                + "ms ("));
    assertThat(
        "why a live run may find fewer late",
        text,
        containsString("(" + TimelineText.BURST_EFFECT));
    assertThat(
        text,
        containsString("dead letters (" + timeline.count(Kind.DEAD) + "; the first 5000 listed):"));
    Matcher summary =
        Pattern.compile(
                "(\\d+) lines = (\\d+) counted in final panes \\+ (\\d+) late \\+ (\\d+) dead")
            .matcher(text);
    assertThat("the summary", summary.find(), equalTo(true));
    long sum =
        Long.parseLong(summary.group(2))
            + Long.parseLong(summary.group(3))
            + Long.parseLong(summary.group(4));
    assertThat("every line accounted for", sum, equalTo(60_000L));
    assertThat(Long.parseLong(summary.group(3)), equalTo(timeline.count(Kind.LATE)));
  }

  /**
   * With sliding windows a record is in several windows: the summary counts each line once, and the
   * (record, window) pairs of the final panes apart.
   */
  @Test
  void withSlidingWindowsEveryLineIsCountedOnceAndThePairsApart() {
    EventTimeWindowing windowing =
        EventTimeWindowing.sliding(Duration.standardSeconds(2), Duration.millis(500));
    ReplayTimeline timeline =
        Replay.of(
                GeneratedLines.records(5_000)
                    .withKeys(3)
                    .withLateFraction(0.05)
                    .withBadFraction(0.05)
                    .withSeed(9),
                CsvEventFormat.keyAndTime())
            .withMaxOutOfOrderness(Duration.standardSeconds(1))
            .explain(windowing, Instant.now());

    String text = text(timeline, windowing);

    assertThat(text, containsString("windows of 2s every 500ms"));
    Matcher summary =
        Pattern.compile(
                "(\\d+) lines = (\\d+) counted in all their windows \\+ (\\d+) late \\+ (\\d+)"
                    + " dead letters; \\d+ panes in \\d+ windows; the final panes count (\\d+)")
            .matcher(text);
    assertThat("the summary", summary.find(), equalTo(true));
    long counted = Long.parseLong(summary.group(2));
    long sum = counted + Long.parseLong(summary.group(3)) + Long.parseLong(summary.group(4));
    assertThat("every line accounted for once", sum, equalTo(5_000L));
    long pairs = Long.parseLong(summary.group(5));
    // Each record counted in all its windows is in four; a partly late one in fewer.
    assertThat(pairs, greaterThan(4 * counted - 1));
    assertThat(pairs, lessThan(4 * (counted + timeline.count(Kind.LATE)) + 1));
  }

  private static String text(ReplayTimeline timeline, EventTimeWindowing windowing) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TimelineText.write(
        timeline,
        WarningText.of(timeline),
        "generated",
        List.of(),
        windowing,
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
