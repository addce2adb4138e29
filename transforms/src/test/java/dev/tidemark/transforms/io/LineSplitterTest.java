package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.nullValue;

import dev.tidemark.transforms.io.LineSplitter.Line;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineSplitterTest {

  private static final int LIMIT = 1 << 20;

  private final LineSplitter splitter = new LineSplitter(LIMIT);
  private final List<Line> lines = new ArrayList<>();

  private void feed(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    splitter.feed(bytes, bytes.length, lines::add);
  }

  private List<String> texts() {
    return lines.stream().map(Line::text).toList();
  }

  @Test
  void keepsAnIncompleteLineUntilItsEndArrives() {
    feed("01,1586489566000\n01,15864");
    assertThat(texts(), contains("01,1586489566000"));
    feed("89567000\n");
    assertThat(texts(), contains("01,1586489566000", "01,1586489567000"));
    assertThat(lines.get(1).whyCut(), nullValue());
  }

  @Test
  void dropsCarriageReturnsAndKeepsEmptyLines() {
    feed("a\r\n\r\nb\n");
    assertThat(texts(), contains("a", "", "b"));
  }

  @Test
  void decodesUtf8SplitAcrossReads() {
    byte[] bytes = "é\n".getBytes(StandardCharsets.UTF_8);
    splitter.feed(new byte[] {bytes[0]}, 1, lines::add);
    splitter.feed(new byte[] {bytes[1], bytes[2]}, 2, lines::add);
    assertThat(texts(), contains("é"));
  }

  @Test
  void flushEmitsTheLastLineWithoutNewlineOnce() {
    feed("tail");
    assertThat(lines, empty());
    splitter.flush(lines::add);
    splitter.flush(lines::add);
    assertThat(texts(), contains("tail"));
  }

  @Test
  void aLineOfTheLimitIsWholeAndOneByteMoreIsCut() {
    LineSplitter small = new LineSplitter(4);
    byte[] bytes = "abcd\r\nabcde\nf\n".getBytes(StandardCharsets.UTF_8);
    small.feed(bytes, bytes.length, lines::add);
    assertThat(
        lines,
        contains(
            new Line("abcd", null),
            new Line(
                "abcd",
                "a line of 5 bytes, longer than the limit of 4; only its first 4 bytes are kept"),
            new Line("f", null)));
  }

  /**
   * (1) A 100 MB line, fed in the socket reader's 64 KiB reads, comes as its first 1024 bytes with
   * its length; (2) the splitter never holds more than the limit; (3) the next line is whole.
   */
  @Test
  void aLineFarLongerThanTheLimitIsCutAndNeverHeldWhole() {
    byte[] read = new byte[64 * 1024];
    Arrays.fill(read, (byte) 'x');
    long length = 100L << 20;
    for (long fed = 0; fed < length; fed += read.length) {
      splitter.feed(read, read.length, lines::add);
      assertThat(splitter.heldBytes(), lessThanOrEqualTo(LIMIT));
    }
    feed("\n01,1586489566000\n");
    assertThat(lines.get(0).text(), equalTo("x".repeat(RecordLimit.KEPT_BYTES)));
    assertThat(lines.get(0).whyCut(), equalTo(RecordLimit.reason("line", length, LIMIT)));
    assertThat(lines.get(1), equalTo(new Line("01,1586489566000", null)));
  }
}
