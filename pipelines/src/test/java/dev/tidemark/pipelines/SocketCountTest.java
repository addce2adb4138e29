package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.transforms.testing.LineServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code count} from its command line on a real socket (DirectRunner: on Flink a socket job keeps
 * running after the sender closes, see {@code ReadSocketLines}; the socket source itself is tested
 * on Flink in transforms/).
 */
class SocketCountTest {

  @TempDir Path directory;

  @Test
  @SuppressWarnings("try") // The server is closed inside the block: that ends the stream.
  void countsWhatTheSenderSentAndEndsWhenItCloses() throws Exception {
    Path out = directory.resolve("results.json");
    try (LineServer server = new LineServer()) {
      CompletableFuture<CommandLine> run = countFrom(server, "--sink=file:" + out);
      server.awaitClient(60, TimeUnit.SECONDS);
      server.send(List.of("01,1586489566000", "01,1586489567000", "02,1586489571000", "oops"));
      server.close();

      CommandLine finished = run.get(120, TimeUnit.SECONDS);
      assertThat(finished.err, finished.exitCode, equalTo(0));
      List<String> finals = new ArrayList<>();
      for (JsonNode result : Outputs.read(out)) {
        if (result.get("final").asBoolean()) {
          finals.add(result.get("key").asText() + "=" + result.get("count").asLong());
        }
      }
      assertThat(finals, containsInAnyOrder("01=2", "02=1"));
      assertThat(
          finished.err.lines().reduce((a, b) -> b).orElse(""),
          equalTo(
              "tidemark: 4 records in, "
                  + Outputs.read(out).size()
                  + " results out, 0 late, 1 dead letters"));
    }
  }

  /**
   * (1) A 100 MB line between two records is a dead letter that keeps its first 1024 bytes and says
   * its length, the limit and its number on the connection; (2) the records around it are counted,
   * and the summary adds up.
   */
  @Test
  @SuppressWarnings("try") // The server is closed inside the block: that ends the stream.
  void aLineLongerThanTheLimitIsADeadLetterThatNamesIt() throws Exception {
    Path out = directory.resolve("long.json");
    Path dead = directory.resolve("long-dead.json");
    long length = 100L << 20;
    try (LineServer server = new LineServer()) {
      CompletableFuture<CommandLine> run =
          countFrom(server, "--sink=file:" + out, "--deadLetterSink=file:" + dead);
      server.awaitClient(60, TimeUnit.SECONDS);
      server.send(List.of("01,1586489566000"));
      server.sendLineOf(length, 'x');
      server.send(List.of("01,1586489567000"));
      server.close();

      CommandLine finished = run.get(120, TimeUnit.SECONDS);
      assertThat(finished.err, finished.exitCode, equalTo(0));
      assertThat(Outputs.finalCounts(Outputs.read(out)), equalTo(Map.of("01,1586489565000", 2L)));
      List<JsonNode> letters = Outputs.read(dead);
      assertThat(letters.size(), equalTo(1));
      assertThat(
          letters.get(0).get("reason").asText(),
          equalTo(
              "a line of 104857600 bytes, longer than the limit of 1048576; only its first 1024"
                  + " bytes are kept (line 2 read from 127.0.0.1:"
                  + server.port()
                  + ")"));
      assertThat(letters.get(0).get("record").asText(), equalTo("x".repeat(1024)));
      assertThat(
          finished.err.lines().reduce((a, b) -> b).orElse(""),
          equalTo(
              "tidemark: 3 records in, "
                  + Outputs.read(out).size()
                  + " results out, 0 late, 1 dead letters"));
    }
  }

  @Test
  @SuppressWarnings("try") // The server is closed inside the block: that ends the stream.
  void recordsFromAWrongClockAreDeadLettersAndS1StaysExact() throws Exception {
    Path out = directory.resolve("s1.json");
    Path late = directory.resolve("s1-late.json");
    Path dead = directory.resolve("s1-dead.json");
    List<String> lines = new ArrayList<>();
    for (long second = 66; second <= 79; second++) {
      lines.add("01,15864895" + second + "000");
      if (second == 69) {
        lines.add("01,4102444800000");
      }
    }
    lines.add("01,1586489589000");
    try (LineServer server = new LineServer()) {
      CompletableFuture<CommandLine> run =
          countFrom(
              server,
              "--sink=file:" + out,
              "--lateSink=file:" + late,
              "--deadLetterSink=file:" + dead);
      server.awaitClient(60, TimeUnit.SECONDS);
      server.send(lines);
      server.close();

      CommandLine finished = run.get(120, TimeUnit.SECONDS);
      assertThat(finished.err, finished.exitCode, equalTo(0));
      assertThat(
          Outputs.finalCounts(Outputs.read(out)),
          equalTo(
              Map.of(
                  "01,1586489565000", 4L,
                  "01,1586489570000", 5L,
                  "01,1586489575000", 5L,
                  "01,1586489585000", 1L)));
      assertThat(Outputs.read(late).size(), equalTo(0));
      List<JsonNode> letters = Outputs.read(dead);
      assertThat(letters.size(), equalTo(1));
      assertThat(
          letters.get(0).get("reason").asText(),
          startsWith("event time 4102444800000 is 73 years ahead of the clock"));
    }
  }

  /**
   * {@code count} on the DirectRunner, started beside the test, reading {@code server} until it
   * closes, with {@code sinks}.
   */
  private static CompletableFuture<CommandLine> countFrom(LineServer server, String... sinks) {
    List<String> args = new ArrayList<>();
    args.add("count");
    args.add("--source=socket://127.0.0.1:" + server.port() + "?reconnect=false");
    args.addAll(List.of(sinks));
    args.add("--runner=DirectRunner");
    return CompletableFuture.supplyAsync(() -> CommandLine.run(args.toArray(String[]::new)));
  }
}
