package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.testing.InMemoryLines;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/** How a replay's source cuts its lines into batches. */
class ReplaySourceBatchesTest {

  @Test
  void aBatchOfLongLinesEndsOnceItHoldsTheCharacterCap() throws Exception {
    // Each line holds a third of the cap and a little more: three lines reach it.
    String padding = "x".repeat((int) (ReplaySource.MAX_CHARS_PER_ELEMENT / 3));
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      lines.add("k," + (1_700_000_000_000L + i) + padding);
    }

    assertThat(batchSizes(lines, 1_000), equalTo(List.of(3, 3, 3, 1)));
  }

  @Test
  void shortLinesFillABatchUpToItsLineCount() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      lines.add("k," + (1_700_000_000_000L + i));
    }

    assertThat(batchSizes(lines, 4), equalTo(List.of(4, 4, 2)));
  }

  private static List<Integer> batchSizes(List<String> lines, int maxLines) throws Exception {
    ReplaySource source =
        ReplaySource.of(new InMemoryLines(lines), CsvEventFormat.keyAndTime(), Duration.ZERO)
            .inBatchesAtArrivalWatermark(maxLines);
    UnboundedReader<List<ArrivedLine>> reader =
        source.createReader(PipelineOptionsFactory.create(), null);
    List<Integer> sizes = new ArrayList<>();
    for (boolean more = reader.start(); more; more = reader.advance()) {
      sizes.add(reader.getCurrent().size());
    }
    return sizes;
  }
}
