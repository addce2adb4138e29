package dev.tidemark.pipelines.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.hasItem;

import dev.tidemark.transforms.testing.PipelineSteps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.transforms.Create;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sinks that write lines without keys ({@code file:}, {@code stdout}) make each element's line
 * in the step that writes it, named after the sink's kind, and never its key: on the DirectRunner,
 * with a key function that fails the run if it is called.
 */
@ExtendWith(TestPipelineExtension.class)
class LineSinksTest {

  @TempDir Path directory;

  @Test
  void aFileSinkWritesEachElementsLineAndNeverMakesItsKey(TestPipeline pipeline) throws Exception {
    Path file = directory.resolve("lines.json");
    Sink sink = SinkUri.parse("sink", "file:" + file, Map.of(), 0, Map.of());

    pipeline
        .apply(Create.of("a", "b", "c"))
        .apply(
            "WriteResults",
            sink.write(
                "results",
                new Lines<String>(
                    element -> "{\"line\":\"" + element + "\"}",
                    element -> {
                      throw new AssertionError("a file sink made the key of " + element);
                    },
                    TableLayout.DEAD_LETTERS)));
    pipeline.run().waitUntilFinish();

    assertThat(
        PipelineSteps.of(pipeline), hasItem("WriteResults/AppendLines/ParMultiDo(AppendLines)"));
    assertThat(
        Files.readAllLines(file, StandardCharsets.UTF_8),
        containsInAnyOrder("{\"line\":\"a\"}", "{\"line\":\"b\"}", "{\"line\":\"c\"}"));
  }
}
