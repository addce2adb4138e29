package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.startsWith;

import dev.tidemark.transforms.testing.SuiteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded run says how far it has got on stderr every few seconds: lines read, their share of the
 * input, the rate and the replay's watermark, the lines read rising from one report to the next;
 * the summary stays the last line. Run as a user runs it: {@code java -jar tidemark.jar}, on a
 * replay paced to last about 12 s.
 */
@Order(SuiteOrder.LONG)
class ProgressLinesIT {

  private static final Pattern PROGRESS =
      Pattern.compile(
          "INFO tidemark\\.progress - read ([\\d,]+) lines \\((\\d+) %\\) of generator .* at"
              + " [\\d,]+ lines/s; replay watermark \\d{4}-\\d\\d-\\d\\dT.*Z");

  @TempDir Path directory;

  @Test
  void aLongRunReportsItsProgress() throws Exception {
    Path log = directory.resolve("run.log");
    Process run =
        TidemarkJar.run(
                "count",
                "--source=generator:records=30000,keys=3,rate=5000,seed=3",
                "--sink=file:" + directory.resolve("results.json"))
            .redirectOutput(log.toFile())
            .start();
    assertThat("ends within 2 min", run.waitFor(2, TimeUnit.MINUTES), equalTo(true));
    List<String> lines = Files.readAllLines(log);
    assertThat(String.join("\n", lines), run.exitValue(), equalTo(0));

    long previous = 0;
    int reports = 0;
    for (String line : lines) {
      Matcher progress = PROGRESS.matcher(line);
      if (progress.matches()) {
        long read = Long.parseLong(progress.group(1).replace(",", ""));
        assertThat(line, read, greaterThan(previous));
        assertThat(line, Integer.parseInt(progress.group(2)) <= 100, equalTo(true));
        previous = read;
        reports++;
      }
    }
    assertThat(String.join("\n", lines), reports, greaterThan(0));
    // The whole log as the reason: once in CI a stack trace came after the summary, and only its
    // last line was shown.
    assertThat(
        String.join("\n", lines),
        lines.get(lines.size() - 1),
        startsWith("tidemark: 30000 records in, "));
  }
}
