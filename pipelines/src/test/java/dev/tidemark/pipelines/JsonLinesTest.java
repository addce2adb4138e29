package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.pipelines.steps.JsonLines;
import dev.tidemark.transforms.join.JoinedRecord;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.Expired;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The JSON lines each pipeline writes, field by field and in order. */
class JsonLinesTest {

  private static final Instant START = new Instant(1586489565000L);
  private static final WindowPane PANE =
      new WindowPane(START, START.plus(5000), Timing.LATE, 1, true);

  @Test
  void countResultWithAndWithoutSum() {
    WindowResult result = new WindowResult(EventKey.of("01"), PANE, 3, 12);
    assertThat(
        CountPipeline.json(result, false),
        equalTo(
            "{\"key\":\"01\",\"count\":3,\"windowStart\":1586489565000,\"windowEnd\":1586489570000,"
                + "\"timing\":\"LATE\",\"pane\":1,\"final\":true}"));
    assertThat(
        CountPipeline.json(result, true),
        equalTo(
            "{\"key\":\"01\",\"count\":3,\"sum\":12,\"windowStart\":1586489565000,"
                + "\"windowEnd\":1586489570000,\"timing\":\"LATE\",\"pane\":1,\"final\":true}"));
  }

  /** S5's row, and a key whose parts JSON escapes: written escaped. */
  static Stream<Arguments> metricsRows() {
    return Stream.of(
        Arguments.of(
            EventKey.of("idx", "es_sink"),
            "Asia/Shanghai",
            "{\"index_name\":\"idx\",\"event_time_log\":\"2020-04-10 11:32:50\","
                + "\"op_type\":\"es_sink\",\"count_result\":4,\"timing\":\"LATE\",\"pane\":1,"
                + "\"final\":true}"),
        Arguments.of(
            EventKey.of("a\"b", "\u00e9\n"),
            "UTC",
            "{\"index_name\":\"a\\\"b\",\"event_time_log\":\"2020-04-10 03:32:50\","
                + "\"op_type\":\"\u00e9\\n\",\"count_result\":4,\"timing\":\"LATE\",\"pane\":1,"
                + "\"final\":true}"));
  }

  @ParameterizedTest
  @MethodSource("metricsRows")
  void metricsRowIsS5sThenItsPane(EventKey key, String timeZone, String row) {
    WindowResult result = new WindowResult(key, PANE, 4, 0);
    assertThat(MetricsPipeline.json(result, ZoneId.of(timeZone)), equalTo(row));
  }

  @Test
  void metricsKeyThatIsNotTwoPartsIsABug() {
    for (EventKey key : List.of(EventKey.of("idx"), EventKey.of("a", "b", "c"))) {
      WindowResult result = new WindowResult(key, PANE, 1, 0);
      IllegalStateException refused =
          assertThrows(
              IllegalStateException.class, () -> MetricsPipeline.json(result, ZoneId.of("UTC")));
      assertThat(refused.getMessage(), containsString("is not (i, op)"));
    }
  }

  @Test
  void joinedOrderKeepsItsFieldsThenItsPane() {
    JoinedRecord joined =
        new JoinedRecord("b1", PANE, true, "{\"orderId\":\"o1\",\"orderSalesmanId\":\"u9\"}");
    assertThat(
        JoinPipeline.json(joined),
        equalTo(
            "{\"orderId\":\"o1\",\"orderSalesmanId\":\"u9\",\"windowStart\":1586489565000,"
                + "\"windowEnd\":1586489570000,\"timing\":\"LATE\",\"pane\":1,\"final\":true}"));
  }

  @Test
  void joinedOrderKeepsNumbersNestingAndEscapesAsTheyWere() {
    JoinedRecord joined =
        new JoinedRecord(
            "b1",
            PANE,
            true,
            "{\"n\":12345678901234,\"x\":1.5,\"ok\":false,\"none\":null,"
                + "\"items\":[1,{\"q\":\"a\\\"b\"}],\"t\":\"\u00e9\"}");
    assertThat(
        JoinPipeline.json(joined),
        equalTo(
            "{\"n\":12345678901234,\"x\":1.5,\"ok\":false,\"none\":null,"
                + "\"items\":[1,{\"q\":\"a\\\"b\"}],\"t\":\"\u00e9\","
                + "\"windowStart\":1586489565000,\"windowEnd\":1586489570000,"
                + "\"timing\":\"LATE\",\"pane\":1,\"final\":true}"));
  }

  @Test
  void joinedOrderThatIsNotAnObjectIsABug() {
    JoinedRecord joined = new JoinedRecord("b1", PANE, true, "[1,2]");
    assertThrows(IllegalStateException.class, () -> JoinPipeline.json(joined));
  }

  @Test
  void lateAndDeadLettersSayWhereTheRecordIsWhenTheSourceKnows() {
    SourcePosition kafka = new SourcePosition("clicks", 2, 41);
    assertThat(
        JsonLines.late(
            new Expired<>(
                new Event(
                    EventKey.of("01"),
                    START.plus(100),
                    0,
                    "01,x",
                    Watermarks.MIN,
                    Event.UNKNOWN_POSITION,
                    kafka),
                START.plus(100),
                new IntervalWindow(START, START.plus(5000)),
                START.plus(9000))),
        equalTo(
            "{\"type\":\"late\",\"key\":\"01\",\"eventTime\":1586489565100,"
                + "\"windowStart\":1586489565000,\"windowEnd\":1586489570000,"
                + "\"watermark\":1586489574000,\"lateByMillis\":8900,\"record\":\"01,x\","
                + "\"topic\":\"clicks\",\"partition\":2,\"offset\":41}"));
    assertThat(
        JsonLines.deadLetter(new DeadLetter("oops", "not a record")),
        equalTo("{\"type\":\"deadLetter\",\"reason\":\"not a record\",\"record\":\"oops\"}"));
  }
}
