package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import java.util.Iterator;
import org.junit.jupiter.api.Test;

/** The generator's lines: the same seed gives the same lines, and a bad line names itself. */
class GeneratedLinesTest {

  @Test
  void aMalformedRecordNamesItsOwnLineNumber() {
    Iterator<String> lines = GeneratedLines.records(200).withBadFraction(0.3).open();
    int malformed = 0;
    for (int line = 1; lines.hasNext(); line++) {
      String text = lines.next();
      if (text.startsWith("malformed")) {
        malformed++;
        assertThat(text, equalTo("malformed record " + line));
      }
    }
    assertThat(malformed, greaterThan(20));
  }

  @Test
  void theSameSeedGivesTheSameLines() {
    GeneratedLines generator = GeneratedLines.records(50).withBadFraction(0.1).withKeys(3);
    Iterator<String> first = generator.open();
    Iterator<String> second = generator.open();
    while (first.hasNext()) {
      assertThat(second.next(), equalTo(first.next()));
    }
    assertThat(second.hasNext(), equalTo(false));
  }
}
