package dev.tidemark.transforms.windowing;

import static dev.tidemark.transforms.testing.WindowCounts.S1_LINES;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.testing.WindowCounts;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On-time results on embedded Flink at several parallelisms: every element is added before the
 * watermark moves, so the outcome does not depend on how Flink's TestStream orders elements and
 * watermarks (Beam #20843-#20845), and must equal the reference exactly.
 */
class CountPerWindowOnFlinkTest {

  private static final Duration WINDOW = Duration.standardSeconds(5);

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void finalCountsEqualTheReference(int parallelism) {
    List<String> lines = new ArrayList<>(S1_LINES);
    lines.addAll(List.of("02,1586489571000", "02,1586489566500", "03,1586489589999"));
    TestStream.Builder<String> builder =
        TestStream.create(StringUtf8Coder.of()).advanceWatermarkTo(new Instant(0));
    for (String line : lines) {
      builder =
          builder.addElements(
              TimestampedValue.of(line, new Instant(Long.parseLong(line.split(",")[1]))));
    }

    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("FlinkRunner", parallelism));
    Collected finals = new Collected();
    Collected late = new Collected();
    PCollectionTuple counted =
        pipeline
            .apply(builder.advanceWatermarkToInfinity())
            .apply("Parse", ParseEvents.with(CsvEventFormat.keyAndTime()))
            .get(ParseEvents.EVENTS)
            .apply("Count", CountPerWindow.of(EventTimeWindowing.fixed(WINDOW)));
    counted
        .get(CountPerWindow.RESULTS)
        .apply(
            "FinalCounts",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    (WindowResult r) ->
                        r.pane().isFinal()
                            ? r.key()
                                + ","
                                + r.pane().windowStart().getMillis()
                                + ","
                                + r.pane().windowEnd().getMillis()
                                + "="
                                + r.count()
                            : "not final"))
        .apply(finals.sink());
    counted
        .get(CountPerWindow.LATE)
        .apply(
            "LateKeys",
            MapElements.into(TypeDescriptors.strings()).via(r -> r.value().key().text()))
        .apply(late.sink());

    assertThat(pipeline.run().waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    assertThat(
        finals.snapshot().stream().filter(s -> !s.equals("not final")).toList(),
        containsInAnyOrder(WindowCounts.expected(lines, WINDOW).toArray(String[]::new)));
    assertThat(late.snapshot(), empty());
  }
}
