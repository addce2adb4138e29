package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.transforms.testing.LineServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sql} over a live socket: when the sender stops sending but stays connected, the query's
 * last window still fires, once the input has been quiet for {@code --idleTimeout}, where Flink SQL
 * would wait for a record that never comes.
 */
class SqlOverSocketTest {

  @TempDir Path directory;

  @Test
  @SuppressWarnings("try") // The server is closed inside the block: that ends the run.
  void theLastWindowFiresWhileTheQuietSenderIsStillConnected() throws Exception {
    Path out = directory.resolve("rows.json");
    try (LineServer server = new LineServer()) {
      CompletableFuture<CommandLine> run =
          CompletableFuture.supplyAsync(
              () ->
                  CommandLine.run(
                      "sql",
                      "--source=socket://127.0.0.1:" + server.port() + "?reconnect=false",
                      "--sink=file:" + out,
                      "--emit=final",
                      "--idleTimeout=2s",
                      "--runner=DirectRunner"));
      server.awaitClient(60, TimeUnit.SECONDS);
      server.send(
          List.of(
              "{\"t\":1700000001100,\"i\":\"idx\",\"op\":\"es_sink\"}",
              "{\"t\":1700000001200,\"i\":\"idx\",\"op\":\"es_sink\"}",
              "{\"t\":1700000002300,\"i\":\"idx\",\"op\":\"kafka_sink\"}"));

      // Nothing more is sent, and the connection stays open: only the quiet input closes windows.
      List<String> finals = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (finals.size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(200);
        finals = finalRows(out);
      }
      assertThat(run.isDone(), equalTo(false));
      assertThat(
          finals,
          containsInAnyOrder(
              "idx|2023-11-14 22:13:22|es_sink|2", "idx|2023-11-14 22:13:23|kafka_sink|1"));

      server.close();
      CommandLine finished = run.get(120, TimeUnit.SECONDS);
      assertThat(finished.err, finished.exitCode, equalTo(0));
    }
  }

  private static List<String> finalRows(Path out) throws Exception {
    List<String> rows = new ArrayList<>();
    List<JsonNode> lines;
    try {
      lines = Outputs.read(out);
    } catch (IOException e) {
      // Not written yet, or a line half written: read again.
      return rows;
    }
    for (JsonNode row : lines) {
      if (row.get("final").asBoolean()) {
        rows.add(
            row.get("index_name").asText()
                + "|"
                + row.get("event_time_log").asText()
                + "|"
                + row.get("op_type").asText()
                + "|"
                + row.get("count_result").asLong());
      }
    }
    return rows;
  }
}
