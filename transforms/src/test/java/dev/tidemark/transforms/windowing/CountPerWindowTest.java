package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.testing.LateText;
import dev.tidemark.transforms.testing.PipelineSteps;
import dev.tidemark.transforms.testing.PresetCountPerWindow;
import java.util.List;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link CountPerWindow} and its specification, the windowing preset with late capture ({@link
 * PresetCountPerWindow}), case by case: each case asserts every pane, and both give the same ones.
 * On the DirectRunner: the only runner whose TestStream sequences watermark advances with elements
 * faithfully and supports {@code advanceProcessingTime} (Beam #20843-#20845; the FlinkRunner cases
 * are in {@link CountPerWindowOnFlinkTest}).
 */
@ExtendWith(TestPipelineExtension.class)
class CountPerWindowTest {

  private static final Instant BASE_TIME = new Instant(1_600_000_000_000L);
  private static final Duration WINDOW = Duration.standardSeconds(5);
  private static final Duration ALLOWED_LATENESS = Duration.standardSeconds(30);
  private static final Duration IDLE_FLUSH = Duration.standardSeconds(10);
  private static final IntervalWindow FIRST_WINDOW =
      new IntervalWindow(BASE_TIME, BASE_TIME.plus(WINDOW));
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(WINDOW)
          .withAllowedLateness(ALLOWED_LATENESS)
          .withIdleFlush(IDLE_FLUSH);

  private static TimestampedValue<String> event(String key, long offsetMillis) {
    Instant eventTime = BASE_TIME.plus(offsetMillis);
    return TimestampedValue.of(key + "," + eventTime.getMillis(), eventTime);
  }

  private static TestStream.Builder<String> stream() {
    return TestStream.create(StringUtf8Coder.of()).advanceWatermarkTo(BASE_TIME);
  }

  private static WindowResult result(
      String key, long count, Timing timing, long paneIndex, boolean isFinal) {
    return new WindowResult(
        EventKey.of(key),
        new WindowPane(FIRST_WINDOW.start(), FIRST_WINDOW.end(), timing, paneIndex, isFinal),
        count,
        0);
  }

  /** The transform under test: the engine, or the preset that specifies it. */
  private static PTransform<PCollection<Event>, PCollectionTuple> counter(
      String name, EventTimeWindowing windowing) {
    return name.equals("preset")
        ? PresetCountPerWindow.of(windowing)
        : CountPerWindow.of(windowing);
  }

  private static PCollectionTuple countPerWindow(
      String counter, TestPipeline p, TestStream<String> stream) {
    return countPerWindow(counter, WINDOWING, p, stream);
  }

  private static PCollectionTuple countPerWindow(
      String counter, EventTimeWindowing windowing, TestPipeline p, TestStream<String> stream) {
    PCollectionTuple parsed =
        p.apply(stream).apply("Parse", ParseEvents.with(CsvEventFormat.keyAndTime()));
    PCollectionTuple counted =
        parsed.get(ParseEvents.EVENTS).apply("Count", counter(counter, windowing));
    return PCollectionTuple.of(CountPerWindow.RESULTS, counted.get(CountPerWindow.RESULTS))
        .and(CountPerWindow.LATE, counted.get(CountPerWindow.LATE))
        .and(ParseEvents.DEAD_LETTER, parsed.get(ParseEvents.DEAD_LETTER));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"engine", "preset"})
  void onTime(String counter, TestPipeline p) {
    TestStream<String> stream =
        stream()
            .addElements(event("a", 1000), event("a", 2000), event("b", 3000))
            .advanceWatermarkTo(BASE_TIME.plus(WINDOW).plus(1))
            .advanceWatermarkToInfinity();
    PCollectionTuple out = countPerWindow(counter, p, stream);
    PCollection<WindowResult> results = out.get(CountPerWindow.RESULTS);

    PAssert.that(results)
        .containsInAnyOrder(
            // (1) The watermark passes the end of the window: one ON_TIME pane per key.
            result("a", 2, Timing.ON_TIME, 0, false),
            result("b", 1, Timing.ON_TIME, 0, false),
            // (2) The window expires at the end of input: a final pane, always, with the same
            // counts.
            result("a", 2, Timing.LATE, 1, true),
            result("b", 1, Timing.LATE, 1, true));
    PAssert.that(out.get(CountPerWindow.LATE)).empty();
    p.run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"engine", "preset"})
  void speculativeIdleFlush(String counter, TestPipeline p) {
    TestStream<String> stream =
        stream()
            .addElements(event("a", 1000), event("a", 2000))
            // (1) The watermark is stuck inside the window, for whatever reason.
            .advanceWatermarkTo(BASE_TIME.plus(2000))
            // (2) The idle flush passes in processing time.
            .advanceProcessingTime(IDLE_FLUSH.plus(Duration.standardSeconds(1)))
            .advanceWatermarkToInfinity();
    PCollection<WindowResult> results =
        countPerWindow(counter, p, stream).get(CountPerWindow.RESULTS);

    PAssert.that(results)
        .containsInAnyOrder(
            // (3) The window produced a result before its watermark came: an EARLY pane.
            result("a", 2, Timing.EARLY, 0, false),
            // (4) The watermark then jumps past the end and the expiry at once: ON_TIME and
            // final.
            result("a", 2, Timing.ON_TIME, 1, true));
    p.run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"engine", "preset"})
  void unobservablyLate(String counter, TestPipeline p) {
    TestStream<String> stream =
        stream()
            .addElements(event("a", 4000))
            .advanceWatermarkTo(BASE_TIME.plus(4500))
            // (1) Behind the watermark, but its window has not fired yet.
            .addElements(event("a", 1000))
            .advanceWatermarkToInfinity();
    PCollectionTuple out = countPerWindow(counter, p, stream);

    // (2) It is simply counted on time (the pane is also final: the watermark jumps to the end).
    PAssert.that(out.get(CountPerWindow.RESULTS))
        .containsInAnyOrder(result("a", 2, Timing.ON_TIME, 0, true));
    PAssert.that(out.get(CountPerWindow.LATE)).empty();
    p.run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"engine", "preset"})
  void observablyLate(String counter, TestPipeline p) {
    TestStream<String> stream =
        stream()
            .addElements(event("a", 1000))
            .advanceWatermarkTo(BASE_TIME.plus(WINDOW).plus(Duration.standardSeconds(10)))
            // (1) Its window has fired, but is within the allowed lateness.
            .addElements(event("a", 2000))
            .advanceWatermarkToInfinity();
    PCollectionTuple out = countPerWindow(counter, p, stream);

    // (2) A LATE pane with the accumulated count, then the final pane when the window expires;
    // nothing captured as late.
    PAssert.that(out.get(CountPerWindow.RESULTS))
        .containsInAnyOrder(
            result("a", 1, Timing.ON_TIME, 0, false),
            result("a", 2, Timing.LATE, 1, false),
            result("a", 2, Timing.LATE, 2, true));
    PAssert.that(out.get(CountPerWindow.LATE)).empty();
    p.run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"engine", "preset"})
  void droppablyLate(String counter, TestPipeline p) {
    Instant pastExpiry = BASE_TIME.plus(WINDOW).plus(ALLOWED_LATENESS).plus(1);
    TestStream<String> stream =
        stream()
            .addElements(event("a", 1000))
            .advanceWatermarkTo(pastExpiry)
            // (1) Its window has expired: Beam would drop it and only bump a counter.
            .addElements(event("a", 2000))
            .advanceWatermarkToInfinity();
    PCollectionTuple out = countPerWindow(counter, p, stream);

    // (2) tidemark captures it, with its window and the watermark it met.
    PAssert.that(out.get(CountPerWindow.LATE).apply("LateText", LateText.each()))
        .containsInAnyOrder(
            LateText.of(
                EventKey.of("a"),
                BASE_TIME.plus(2000),
                FIRST_WINDOW,
                pastExpiry,
                "a," + BASE_TIME.plus(2000).getMillis()));
    // (3) And the window's final pane, which fired when the watermark jumped past its end and its
    // expiry at once, does not count it.
    PAssert.that(out.get(CountPerWindow.RESULTS))
        .containsInAnyOrder(result("a", 1, Timing.ON_TIME, 0, true));
    p.run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"engine", "preset"})
  void badInputGoesToTheDeadLetterOutput(String counter, TestPipeline p) {
    TestStream<String> stream =
        stream()
            .addElements(
                event("a", 1000),
                TimestampedValue.of("garbage", BASE_TIME),
                TimestampedValue.of("a,soon", BASE_TIME),
                TimestampedValue.of(",1000", BASE_TIME),
                TimestampedValue.of("a,9223372036854775807", BASE_TIME))
            .advanceWatermarkToInfinity();
    PCollectionTuple out = countPerWindow(counter, p, stream);

    // (1) Each bad line with its reason; the pipeline keeps going and counts the good one.
    PAssert.that(out.get(ParseEvents.DEAD_LETTER))
        .containsInAnyOrder(
            new DeadLetter(
                "garbage", "expected 2 comma-separated fields (key,epochMillis), found 1"),
            new DeadLetter(
                "a,soon", "field 'epochMillis': 'soon' is not an epoch-millisecond timestamp"),
            new DeadLetter(",1000", "field 'key' is empty"),
            new DeadLetter(
                "a,9223372036854775807",
                "field 'epochMillis': 9223372036854775807 is outside the timestamps Beam can"
                    + " window"));
    PAssert.that(out.get(CountPerWindow.RESULTS))
        .containsInAnyOrder(result("a", 1, Timing.ON_TIME, 0, true));
    p.run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"engine", "preset"})
  void finalPaneOnly(String counter, TestPipeline p) {
    TestStream<String> stream =
        stream()
            .addElements(event("a", 1000))
            // (1) The idle flush passes while the window is open: no EARLY pane.
            .advanceProcessingTime(IDLE_FLUSH.plus(Duration.standardSeconds(1)))
            // (2) The window closes, and a record comes within the lateness: no pane yet.
            .advanceWatermarkTo(BASE_TIME.plus(WINDOW).plus(Duration.standardSeconds(10)))
            .addElements(event("a", 2000))
            .advanceWatermarkToInfinity();
    PCollectionTuple out = countPerWindow(counter, WINDOWING.withFinalPaneOnly(), p, stream);

    // (3) One pane when the window expires, with both records: the first after the window's end,
    // so ON_TIME, and the only one, so index 0.
    PAssert.that(out.get(CountPerWindow.RESULTS))
        .containsInAnyOrder(result("a", 2, Timing.ON_TIME, 0, true));
    PAssert.that(out.get(CountPerWindow.LATE)).empty();
    p.run();
  }

  @Test
  void theEnginesPaneStepMakesTheResultsAndLateRecordsWithNoStepAfterIt(TestPipeline p) {
    TestStream<String> stream =
        stream()
            .addElements(event("a", 1000))
            .advanceWatermarkTo(BASE_TIME.plus(WINDOW).plus(ALLOWED_LATENESS).plus(1))
            .addElements(event("a", 2000))
            .advanceWatermarkToInfinity();
    PCollectionTuple out = countPerWindow("engine", p, stream);

    PAssert.that(out.get(CountPerWindow.RESULTS))
        .containsInAnyOrder(result("a", 1, Timing.ON_TIME, 0, true));
    PAssert.that(
            out.get(CountPerWindow.LATE)
                .apply(
                    MapElements.into(TypeDescriptors.strings())
                        .via(
                            late ->
                                late.value().key().text()
                                    + " late at "
                                    + late.eventTime().getMillis())))
        .containsInAnyOrder("a late at " + BASE_TIME.plus(2000).getMillis());
    List<String> countSteps =
        PipelineSteps.of(p).stream().filter(step -> step.startsWith("Count/")).toList();
    assertThat(countSteps.get(countSteps.size() - 1), equalTo("Count/CountAndSum/DecidePanes"));
    p.run();
  }
}
