package dev.tidemark.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stack's command lines are checked before anything runs: before, an unknown option was
 * ignored, a missing word failed with an index out of bounds, and {@code topic}, {@code produce}
 * and {@code consume} took no {@code --dir}, so they used the default directory's stack even when
 * another was meant.
 */
class StackCommandTest {

  @Test
  void everyCommandTakesTheStacksDirectory() {
    assertThat(
        StackCommand.parse("produce", "clicks", "clicks.json", "--dir=/tmp/mine"),
        equalTo(
            new StackCommand(
                "produce", List.of("clicks", "clicks.json"), Map.of("dir", "/tmp/mine"))));
    assertThat(
        StackCommand.parse("consume", "results", "--seconds=3", "--dir=/tmp/mine").options(),
        equalTo(Map.of("seconds", "3", "dir", "/tmp/mine")));
  }

  @Test
  void anOptionTheCommandDoesNotTakeIsRefusedWithTheOnesItTakes() {
    assertThat(
        refusal("start", "--kafkaport=9093"),
        equalTo(
            "--kafkaport is not an option of start; it takes --dir, --flinkPort, --kafkaPort,"
                + " --postgresPort, --prometheusPort, --taskManagers"));
    assertThat(
        refusal("topic", "clicks", "2", "--seconds=3"),
        equalTo("--seconds is not an option of topic; it takes --dir"));
  }

  @Test
  void aWordTooFewOrTooManyOrAnUnknownCommandGivesTheUsage() {
    assertThat(
        refusal("topic", "clicks"), equalTo("usage: stack topic NAME PARTITIONS [--dir=DIR]"));
    assertThat(refusal("stop", "now"), equalTo("usage: stack stop [--dir=DIR]"));
    assertThat(refusal("restart"), equalTo(StackCommand.USAGE));
    assertThat(
        refusal("consume", "results", "--keys"), equalTo("--keys takes a value: --keys=..."));
    assertThat(
        refusal("consume", "results", "--dir=/a", "--dir=/b"),
        equalTo("--dir is given more than once"));
  }

  @Test
  void flinkPassesEveryWordAfterItToFlinksCommandLine() {
    assertThat(
        StackCommand.parse("--dir=/tmp/mine", "flink", "run", "-d", "job.jar", "metrics", "--x=1"),
        equalTo(
            new StackCommand(
                "flink",
                List.of("run", "-d", "job.jar", "metrics", "--x=1"),
                Map.of("dir", "/tmp/mine"))));
    assertThat(refusal("flink"), equalTo("usage: stack flink ARGUMENTS... [--dir=DIR]"));
    assertThat(
        refusal("--seconds=3", "flink", "list"),
        equalTo("--seconds is not an option of flink; it takes --dir"));
  }

  private static String refusal(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> StackCommand.parse(args))
        .getMessage();
  }
}
