package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FinalRowsTest {

  // 2023-11-14 22:13:20 UTC; windows that end by then are complete.
  private static final long COMPLETE_UP_TO = 1_700_000_000_000L;
  private static final S5Topic TOPIC = new S5Topic("127.0.0.1:9092", "s5", 10, COMPLETE_UP_TO, 6);

  @TempDir Path dir;

  @Test
  void countsTheFinalRowsOfCompleteWindowsOnly() throws IOException {
    long counted =
        counted(
            TOPIC,
            row("2023-11-14 22:13:19", 2, "EARLY", false),
            row("2023-11-14 22:13:19", 4, "ON_TIME", true),
            row("2023-11-14 22:13:20", 1, "ON_TIME", true),
            row("2023-11-14 22:13:21", 9, "ON_TIME", true),
            row("2023-11-14 22:13:22", 7, "EARLY", false));

    assertThat(counted, equalTo(5L));
  }

  @Test
  void theNewestCompleteWindowMayEndBetweenTwoWholeSeconds() throws IOException {
    S5Topic topic = new S5Topic("127.0.0.1:9092", "s5", 10, COMPLETE_UP_TO + 910, 1);
    long counted =
        counted(
            topic,
            row("2023-11-14 22:13:20", 1, "ON_TIME", true),
            row("2023-11-14 22:13:21", 9, "ON_TIME", true));

    assertThat(counted, equalTo(1L));
  }

  @Test
  void aRowIsCountedOnceItsLineIsWholeAndOnlyOnce() throws IOException {
    Path rows = dir.resolve("rows.json");
    String last = row("2023-11-14 22:13:18", 3, "ON_TIME", true);
    Files.writeString(rows, row("2023-11-14 22:13:19", 2, "ON_TIME", true) + last.substring(0, 40));
    FinalRows finalRows = new FinalRows(rows, TOPIC);

    assertThat(finalRows.counted(), equalTo(2L));
    assertThat(finalRows.counted(), equalTo(2L));

    Files.writeString(rows, last.substring(40), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    assertThat(finalRows.counted(), equalTo(5L));
    assertThat(finalRows.counted(), equalTo(5L));
  }

  @Test
  void aKeyOutsideAsciiDoesNotHideItsRow() throws IOException {
    long counted =
        counted(
            TOPIC,
            row("2023-11-14 22:13:19", 2, "ON_TIME", true).replace("idx", "índice\u2028€"),
            row("2023-11-14 22:13:19", 4, "ON_TIME", true));

    assertThat(counted, equalTo(6L));
  }

  /** What a reader of a file of {@code rows} counts for {@code topic} at its first look. */
  private long counted(S5Topic topic, String... rows) throws IOException {
    Path file = dir.resolve("rows.json");
    Files.writeString(file, String.join("", rows), StandardCharsets.UTF_8);
    return new FinalRows(file, topic).counted();
  }

  private static String row(String windowEnd, long count, String timing, boolean isFinal) {
    return String.format(
        "{\"index_name\":\"idx\",\"event_time_log\":\"%s\",\"op_type\":\"GET\",\"count_result\":%d,"
            + "\"timing\":\"%s\",\"pane\":0,\"final\":%s}%n",
        windowEnd, count, timing, isFinal);
  }
}
