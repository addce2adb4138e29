package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.nullValue;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Utf8LineReader} gives the lines {@code BufferedReader.readLine()} gives, byte for byte the
 * same input: every kind of end of line, at the end of the stream or not, multi-byte and malformed
 * UTF-8, across the ends of its buffer and of the stream's reads; and a line longer than its limit
 * comes cut to its first bytes, with the reason, in bounded memory.
 */
class Utf8LineReaderTest {

  private static final int NO_LIMIT = Integer.MAX_VALUE;

  @Test
  void endsLinesAtLineFeedCarriageReturnOrBoth() throws IOException {
    assertThat(
        linesOf(new Utf8LineReader(stream("a\nb\r\nc\rd\r\re\n\nf"))),
        contains("a", "b", "c", "d", "", "e", "", "f"));
  }

  @Test
  void aCarriageReturnAtTheEndOfABufferStillTakesTheLineFeedAfterIt() throws IOException {
    // "ab\r" fills the 3-byte buffer; the '\n' comes with the next read.
    assertThat(
        linesOf(new Utf8LineReader(stream("ab\r\ncd\r\n"), 3, NO_LIMIT)), contains("ab", "cd"));
  }

  @Test
  void aLineLongerThanTheBufferGrowsIt() throws IOException {
    String longLine = "x".repeat(1_000);
    assertThat(
        linesOf(new Utf8LineReader(stream("a\n" + longLine + "\nb"), 4, NO_LIMIT)),
        contains("a", longLine, "b"));
  }

  /**
   * 2,000 generated inputs (fixed seed): short lines of ASCII, two- to four-byte characters, stray
   * continuation bytes, cut sequences, and every end of line, read through buffers of 1 to 16 bytes
   * and the default, from a stream that hands out 1 to 7 bytes per read.
   */
  @Test
  void givesWhatBufferedReaderGivesOnGeneratedInputs() throws IOException {
    Random random = new Random(20261201);
    for (int round = 0; round < 2_000; round++) {
      byte[] input = generated(random);
      List<String> expected = bufferedReaderLines(input);
      int bufferBytes =
          round % 5 == 0 ? Utf8LineReader.DEFAULT_BUFFER_BYTES : 1 + random.nextInt(16);
      List<String> actual =
          linesOf(
              new Utf8LineReader(new ShortReads(input, random.nextLong()), bufferBytes, NO_LIMIT));
      assertThat("input " + Arrays.toString(input), actual, equalTo(expected));
    }
  }

  @Test
  void aLineLongerThanTheLimitIsCutToItsFirstBytesAndSaysSo() throws IOException {
    Utf8LineReader reader =
        new Utf8LineReader(stream("a\n" + "x".repeat(5_000) + "\nb"), 16, 2_000);
    assertThat(reader.readLine(), equalTo("a"));
    assertThat(reader.whyCut(), nullValue());
    assertThat(reader.readLine(), equalTo("x".repeat(RecordLimit.KEPT_BYTES)));
    assertThat(
        reader.whyCut(),
        equalTo(
            "a line of 5000 bytes, longer than the limit of 2000; only its first 1024 bytes are"
                + " kept"));
    assertThat(reader.readLine(), equalTo("b"));
    assertThat(reader.whyCut(), nullValue());
    assertThat(reader.readLine(), nullValue());
  }

  @Test
  void aLongLineWhoseEndIsInTheBufferIsCutToo() throws IOException {
    Utf8LineReader reader = new Utf8LineReader(stream("0123456789AB\r\nz"), 1 << 16, 10);
    assertThat(reader.readLine(), equalTo("0123456789"));
    assertThat(
        reader.whyCut(),
        equalTo(
            "a line of 12 bytes, longer than the limit of 10; only its first 10 bytes are kept"));
    assertThat(reader.readLine(), equalTo("z"));
    assertThat(reader.readLine(), nullValue());
  }

  /**
   * 2,000 generated inputs (fixed seed) of ASCII lines from empty to 300 bytes, every kind of end
   * of line, limits of 1 to 200 bytes, buffers of 1 to 16 bytes and reads of 1 to 7: a line within
   * the limit is whole, a longer one is its first bytes, and says how long it was.
   */
  @Test
  void cutsEveryLineLongerThanTheLimitAndNoOther() throws IOException {
    Random random = new Random(20261202);
    String[] ends = {"\n", "\r", "\r\n"};
    for (int round = 0; round < 2_000; round++) {
      int limit = 1 + random.nextInt(200);
      StringBuilder input = new StringBuilder();
      List<String> lines = new ArrayList<>();
      int count = random.nextInt(8);
      for (int i = 0; i < count; i++) {
        String line = "y".repeat(random.nextInt(301));
        lines.add(line);
        input.append(line).append(ends[random.nextInt(ends.length)]);
      }
      Utf8LineReader reader =
          new Utf8LineReader(
              new ShortReads(input.toString().getBytes(StandardCharsets.UTF_8), random.nextLong()),
              1 + random.nextInt(16),
              limit);
      for (String line : lines) {
        boolean cut = line.length() > limit;
        String read = reader.readLine();
        assertThat(input.toString(), read, equalTo(cut ? line.substring(0, limit) : line));
        assertThat(
            input.toString(),
            reader.whyCut(),
            cut ? containsString("a line of " + line.length() + " bytes") : nullValue());
      }
      assertThat(reader.readLine(), nullValue());
    }
  }

  /** A 100 MB line read with a 1 MiB limit never takes more than about twice the limit. */
  @Test
  void aHundredMegabyteLineTakesAboutTwiceTheLimit() throws IOException {
    long length = 100L << 20;
    int limit = 1 << 20;
    InputStream hundredMegabytes =
        new InputStream() {
          private long position;

          @Override
          public int read() {
            if (position < length) {
              position++;
              return 'z';
            }
            return position++ == length ? '\n' : -1;
          }

          @Override
          public int read(byte[] into, int offset, int count) {
            if (position > length) {
              return -1;
            }
            int n = (int) Math.min(count, length - position);
            Arrays.fill(into, offset, offset + n, (byte) 'z');
            position += n;
            if (n < count && position == length) {
              into[offset + n] = '\n';
              position++;
              n++;
            }
            return n;
          }
        };
    Utf8LineReader reader =
        new Utf8LineReader(hundredMegabytes, Utf8LineReader.DEFAULT_BUFFER_BYTES, limit);
    assertThat(reader.readLine(), equalTo("z".repeat(RecordLimit.KEPT_BYTES)));
    assertThat(reader.whyCut(), containsString("a line of " + length + " bytes"));
    assertThat(reader.readLine(), nullValue());
    assertThat(reader.bufferBytes(), lessThanOrEqualTo(2 * limit));
  }

  private static byte[] generated(Random random) {
    byte[][] pieces = {
      "a".getBytes(StandardCharsets.UTF_8),
      "{\"t\":1}".getBytes(StandardCharsets.UTF_8),
      "é".getBytes(StandardCharsets.UTF_8),
      "€".getBytes(StandardCharsets.UTF_8),
      "😀".getBytes(StandardCharsets.UTF_8),
      {(byte) 0x80},
      {(byte) 0xE2, (byte) 0x82},
      {(byte) 0xF0},
      {'\n'},
      {'\r'},
      {'\r', '\n'},
    };
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int count = random.nextInt(30);
    for (int i = 0; i < count; i++) {
      bytes.writeBytes(pieces[random.nextInt(pieces.length)]);
    }
    return bytes.toByteArray();
  }

  private static List<String> linesOf(Utf8LineReader reader) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      lines.add(line);
    }
    return lines;
  }

  private static List<String> bufferedReaderLines(byte[] input) throws IOException {
    BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(new ByteArrayInputStream(input), StandardCharsets.UTF_8));
    List<String> lines = new ArrayList<>();
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      lines.add(line);
    }
    return lines;
  }

  private static InputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Hands out a few bytes per read, as a socket or a pipe may. */
  private static final class ShortReads extends InputStream {
    private final byte[] bytes;
    private final Random random;
    private int position;

    ShortReads(byte[] bytes, long seed) {
      this.bytes = bytes;
      this.random = new Random(seed);
    }

    @Override
    public int read() {
      return position < bytes.length ? bytes[position++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] into, int offset, int length) {
      if (position == bytes.length) {
        return -1;
      }
      int count = Math.min(Math.min(length, 1 + random.nextInt(7)), bytes.length - position);
      System.arraycopy(bytes, position, into, offset, count);
      position += count;
      return count;
    }
  }
}
