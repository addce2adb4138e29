package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineSplitterTest {

  private final LineSplitter splitter = new LineSplitter();
  private final List<String> lines = new ArrayList<>();

  private void feed(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    splitter.feed(bytes, bytes.length, lines::add);
  }

  @Test
  void keepsAnIncompleteLineUntilItsEndArrives() {
    feed("01,1586489566000\n01,15864");
    assertThat(lines, contains("01,1586489566000"));
    feed("89567000\n");
    assertThat(lines, contains("01,1586489566000", "01,1586489567000"));
  }

  @Test
  void dropsCarriageReturnsAndKeepsEmptyLines() {
    feed("a\r\n\r\nb\n");
    assertThat(lines, contains("a", "", "b"));
  }

  @Test
  void decodesUtf8SplitAcrossReads() {
    byte[] bytes = "é\n".getBytes(StandardCharsets.UTF_8);
    splitter.feed(new byte[] {bytes[0]}, 1, lines::add);
    splitter.feed(new byte[] {bytes[1], bytes[2]}, 2, lines::add);
    assertThat(lines, contains("é"));
  }

  @Test
  void flushEmitsTheLastLineWithoutNewlineOnce() {
    feed("tail");
    assertThat(lines, empty());
    splitter.flush(lines::add);
    splitter.flush(lines::add);
    assertThat(lines, contains("tail"));
  }
}
