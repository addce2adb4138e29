package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A line longer than {@code --maxRecordBytes} is a dead letter that names its line and keeps only
 * its first 1024 bytes; the lines around it count as before, and the run does not hold the line in
 * memory ({@code Utf8LineReaderTest} bounds the reader's buffer). A 100 MB line, as a user's file
 * may have one, through {@code count} and {@code explain}.
 */
class LongRecordsTest {

  private static final long BASE = 1586489565000L;
  private static final int HUNDRED_MEGABYTES = 100 << 20;

  @TempDir static Path directory;
  private static Path input;

  /** Two records, a 100 MB line of {@code x}, two records; all in one 5 s window of key 01. */
  @BeforeAll
  static void writeInput() throws IOException {
    input = directory.resolve("long.csv");
    try (OutputStream out = Files.newOutputStream(input)) {
      out.write(("01," + BASE + "\n01," + (BASE + 1000) + "\n").getBytes(StandardCharsets.UTF_8));
      byte[] chunk = new byte[1 << 20];
      Arrays.fill(chunk, (byte) 'x');
      for (int written = 0; written < HUNDRED_MEGABYTES; written += chunk.length) {
        out.write(chunk);
      }
      out.write(
          ("\n01," + (BASE + 2000) + "\n01," + (BASE + 3000) + "\n")
              .getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void countMakesTheLongLineADeadLetterAndCountsTheRest() throws Exception {
    Path out = directory.resolve("counts.json");
    Path dead = directory.resolve("dead.json");

    CommandLine run =
        CommandLine.run(
            "count",
            "--source=file:" + input,
            "--sink=file:" + out,
            "--deadLetterSink=file:" + dead,
            "--runner=DirectRunner");

    assertThat(run.err, run.exitCode, equalTo(0));
    assertThat(run.err, containsString("tidemark: 5 records in, 1 results out, 0 late, 1 dead"));
    assertThat(Outputs.finalCounts(Outputs.read(out)), equalTo(Map.of("01," + BASE, 4L)));
    List<JsonNode> letters = Outputs.read(dead);
    assertThat(letters.size(), equalTo(1));
    assertThat(
        letters.get(0).get("reason").asText(),
        equalTo(
            "a line of "
                + HUNDRED_MEGABYTES
                + " bytes, longer than the limit of 1048576; only its first 1024 bytes are kept"
                + " (line 3 of the recording)"));
    assertThat(letters.get(0).get("record").asText(), equalTo("x".repeat(1024)));
  }

  @Test
  void explainListsTheLongLineAmongTheDeadLetters() {
    CommandLine run =
        CommandLine.run("explain", "--source=file:" + input, "--maxRecordBytes=100000");

    assertThat(run.err, run.exitCode, equalTo(0));
    assertThat(
        run.out,
        containsString(
            "a line of "
                + HUNDRED_MEGABYTES
                + " bytes, longer than the limit of 100000; only its first 1024 bytes are kept"));
    assertThat(run.out, containsString("5 lines = 4 counted in final panes + 0 late + 1 dead"));
  }

  @Test
  void aLimitThatIsNoLengthIsRefused() {
    CommandLine run = CommandLine.run("count", "--maxRecordBytes=0");

    assertThat(run.exitCode, equalTo(2));
    assertThat(
        run.err.strip(),
        equalTo(
            "tidemark: --maxRecordBytes: 0 is not a length; use a number of bytes, e.g. 1048576"));
  }
}
