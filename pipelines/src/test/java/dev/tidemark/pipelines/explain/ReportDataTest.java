package dev.tidemark.pipelines.explain;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayTimeline.Kind;
import dev.tidemark.transforms.replay.ReplayTimeline.Point;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The report's data: what the page's script decodes is the timeline it was written from, with the
 * true count of each kind beside what is plotted, panes capped and the cap said, and no record's
 * text able to end the page's script.
 */
class ReportDataTest {

  private static final EventTimeWindowing ONE_SECOND =
      EventTimeWindowing.fixed(Duration.standardSeconds(1))
          .withAllowedLateness(Duration.millis(500));

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void thePlottedPointsDecodeToTheTimelineAndTheCountsAreTheTrueOnes() throws Exception {
    ReplayTimeline timeline =
        explain(
            GeneratedLines.records(30_000)
                .withKeys(3)
                .withOutOfOrderness(Duration.millis(1500))
                .withLateFraction(0.02)
                .withBadFraction(0.01)
                .withSeed(5));

    JsonNode data = JSON.readTree(ReportData.of(timeline, ONE_SECOND, ReportData.MAX_PANES));

    for (Kind kind : Kind.values()) {
      assertThat(
          kind + "'s lines",
          undelta(data.get("points").get(kind.ordinal()).get("line")),
          equalTo(
              timeline.points().stream()
                  .filter(point -> point.kind() == kind)
                  .map(Point::line)
                  .toList()));
    }
    List<Long> eventTimes = undelta(data.get("points").get(Kind.LATE.ordinal()).get("t"));
    assertThat(
        "late records' event times",
        eventTimes,
        equalTo(
            timeline.points().stream()
                .filter(point -> point.kind() == Kind.LATE)
                .map(point -> point.eventTime().getMillis() - data.get("base").asLong())
                .toList()));
    JsonNode onTime = data.get("counts").get("ON_TIME");
    assertThat(onTime.get(1).asLong(), equalTo(timeline.count(Kind.ON_TIME)));
    assertThat("sampled", onTime.get(1).asLong(), greaterThan(onTime.get(0).asLong()));
    long plottedOnTime =
        timeline.points().stream().filter(point -> point.kind() == Kind.ON_TIME).count();
    assertThat(onTime.get(0).asLong(), equalTo(plottedOnTime));
    assertThat(data.get("counts").get("DEAD").get(1).asLong(), equalTo(timeline.count(Kind.DEAD)));
    assertThat(data.get("lines").asLong(), equalTo(30_000L));
  }

  @Test
  void panesBeyondTheCapAreLeftOutAndCounted() throws Exception {
    ReplayTimeline timeline = explain(GeneratedLines.records(300).withKeys(3).withSeed(5));
    int cap = timeline.panes().size() / 2;

    JsonNode data = JSON.readTree(ReportData.of(timeline, ONE_SECOND, cap));

    assertThat(data.get("panes").get("count").size(), equalTo(cap));
    assertThat(data.get("panesLeftOut").asInt(), equalTo(timeline.panes().size() - cap));
    assertThat(data.get("panesLeftOut").asInt(), greaterThan(0));
  }

  @Test
  void aRecordsTextCannotEndThePagesScript() throws Exception {
    ReplayTimeline timeline = explain(lines("a,1600000000000", "</script><b>bold</b>"));

    String text = ReportData.of(timeline, ONE_SECOND, ReportData.MAX_PANES);

    assertThat(text, not(containsString("</")));
    JsonNode dead = JSON.readTree(text).get("dead").get("2");
    assertThat(dead.get(0).asText(), equalTo("</script><b>bold</b>"));
  }

  /** A column of differences, as the page's script reads it. */
  private static List<Long> undelta(JsonNode column) {
    List<Long> values = new ArrayList<>();
    long previous = 0;
    for (JsonNode delta : column) {
      previous += delta.asLong();
      values.add(previous);
    }
    return values;
  }

  private static ReplayTimeline explain(RecordedLines lines) {
    return Replay.of(lines, CsvEventFormat.keyAndTime())
        .withMaxOutOfOrderness(Duration.standardSeconds(1))
        .explain(ONE_SECOND, Instant.now());
  }

  private static RecordedLines lines(String... lines) {
    return new RecordedLines() {
      @Override
      public Iterator<String> open() {
        return List.of(lines).iterator();
      }

      @Override
      public String describe() {
        return "two lines";
      }
    };
  }
}
