package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.join.JoinedRecord;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.model.WindowResult;
import java.time.ZoneId;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** The JSON lines each pipeline writes, field by field and in order. */
class JsonLinesTest {

  private static final Instant START = new Instant(1586489565000L);
  private static final WindowPane PANE =
      new WindowPane(START, START.plus(5000), Timing.LATE, 1, true);

  @Test
  void countResultWithAndWithoutSum() {
    WindowResult result = new WindowResult("01", PANE, 3, 12);
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

  @Test
  void metricsRowIsS5sThenItsPane() {
    WindowResult result = new WindowResult("[\"idx\",\"es_sink\"]", PANE, 4, 0);
    assertThat(
        MetricsPipeline.json(result, ZoneId.of("Asia/Shanghai")),
        equalTo(
            "{\"index_name\":\"idx\",\"event_time_log\":\"2020-04-10 11:32:50\","
                + "\"op_type\":\"es_sink\",\"count_result\":4,\"timing\":\"LATE\",\"pane\":1,"
                + "\"final\":true}"));
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
  void lateAndDeadLettersSayWhereTheRecordIsWhenTheSourceKnows() {
    SourcePosition kafka = new SourcePosition("clicks", 2, 41);
    assertThat(
        JsonLines.late(
            new LateRecord(
                "01", START.plus(100), START, START.plus(5000), START.plus(9000), "01,x", kafka)),
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
