package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import org.junit.jupiter.api.Test;

/**
 * Records read in the wrong format are dead letters, as any record that cannot be parsed, and the
 * summary and {@code explain} say that they look written in another format, and which one reads
 * them: S2's JSON orders given to {@code count} without {@code --format=json}, and comma-separated
 * lines given to {@code metrics}, which reads JSON (all but the one line of the sample without a
 * comma).
 */
class WrongFormatTest {

  @Test
  void jsonReadAsCsvIsSaidInTheSummary() {
    CommandLine run =
        CommandLine.run("count", "--source=sample:s2-orders.json", "--runner=DirectRunner");

    assertThat(run.err, run.exitCode, equalTo(0));
    assertThat(
        run.err.strip(),
        endsWith(
            "tidemark: 10 records in, 0 results out, 0 late, 10 dead letters (10 of them look"
                + " like JSON records, which --format=json reads)"));
  }

  @Test
  void jsonReadAsCsvIsAWarningOfExplain() {
    CommandLine run = CommandLine.run("explain", "--source=sample:s2-orders.json");

    assertThat(run.err, run.exitCode, equalTo(0));
    assertThat(
        run.out,
        containsString(
            "10 of 10 dead letters look like JSON objects, which --format=json reads (with"
                + " --keyField and --timeField): is the format right?"));
  }

  @Test
  void csvReadAsJsonIsSaidInTheSummary() {
    CommandLine run =
        CommandLine.run("metrics", "--source=sample:count.csv", "--runner=DirectRunner");

    assertThat(run.err, run.exitCode, equalTo(0));
    assertThat(
        run.err,
        containsString(
            "21 dead letters (20 of them look like comma-separated lines, which --format=csv"
                + " reads)"));
  }

  @Test
  void recordsOfTheRightFormatGiveNoHint() {
    CommandLine run = CommandLine.run("count", "--runner=DirectRunner");

    assertThat(run.err, run.exitCode, equalTo(0));
    assertThat(run.err, not(containsString("--format=")));
  }
}
