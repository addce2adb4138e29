package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import java.util.List;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The idle flush rule on both runners, from a real source that emits a record every 50 ms of wall
 * clock time: an EARLY pane comes only for a window whose close is overdue because the watermark
 * stopped moving, never in a stream whose watermark moves. A {@code TestStream} cannot show this on
 * Flink, which has no {@code advanceProcessingTime}; a paced source shows it on both runners alike.
 *
 * <p>The idle flush (1.2 s) is shorter than the time a 3 s window stays open, so a flush counted
 * from a window's first record, as Beam's {@code AfterProcessingTime.pastFirstElementInPane()}
 * counts it, would give every window of the steady stream an EARLY pane.
 */
class IdleFlushRuleTest {

  /** The start of a 3 s window. */
  private static final Instant BASE_TIME = new Instant(1_600_000_002_000L);

  private static final Duration WINDOW = Duration.standardSeconds(3);
  private static final Duration EVERY = Duration.millis(50);
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(WINDOW).withIdleFlush(Duration.millis(1200));
  private static final long RECORDS_PER_WINDOW = WINDOW.getMillis() / EVERY.getMillis();

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void aSteadyStreamGivesOnePanePerWindowAndNoEarlyPane(String runner) throws Exception {
    // (1) Event time moves with the records, and the source's watermark with it, every 50 ms.
    Collected panes = new Collected();
    Pipeline pipeline = pacedCount(runner, n -> BASE_TIME.plus(EVERY.multipliedBy(n)), panes);
    PipelineResult result = pipeline.run();
    try {
      // (2) The first two windows close as the watermark passes their ends, 3 and 6 s in.
      assertThat(
          panes.snapshot().toString(),
          panes.awaitUntil(
              seen -> seen.stream().filter(p -> p.contains(" final ")).count() >= 2, 60_000),
          equalTo(true));
    } finally {
      Runners.cancel(result);
    }
    // (3) One pane per window, ON_TIME and final, holding all its records: none EARLY.
    List<String> firstTwo =
        panes.snapshot().stream()
            .filter(
                p ->
                    !p.startsWith(
                        Long.toString(BASE_TIME.plus(WINDOW.multipliedBy(2)).getMillis())))
            .toList();
    assertThat(
        firstTwo,
        containsInAnyOrder(
            BASE_TIME.getMillis() + " ON_TIME#0 final " + RECORDS_PER_WINDOW,
            BASE_TIME.plus(WINDOW).getMillis() + " ON_TIME#0 final " + RECORDS_PER_WINDOW));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void aStalledWatermarkGivesAnEarlyPane(String runner) throws Exception {
    // (1) Records keep coming, but every one has the same event time: the source's watermark
    // stays where the first one put it, inside the first window.
    Collected panes = new Collected();
    Pipeline pipeline = pacedCount(runner, n -> BASE_TIME.plus(EVERY), panes);
    PipelineResult result = pipeline.run();
    try {
      // (2) The window's close is overdue: its EARLY pane comes once the watermark has been still
      // for the idle flush.
      assertThat(
          panes.snapshot().toString(),
          panes.awaitUntil(seen -> !seen.isEmpty(), 60_000),
          equalTo(true));
    } finally {
      Runners.cancel(result);
    }
    assertThat(panes.snapshot(), hasItem(startsWith(BASE_TIME.getMillis() + " EARLY#0 ")));
  }

  /** Counts per window a record every 50 ms, at {@code eventTime} of its sequence number. */
  private static Pipeline pacedCount(
      String runner, SerializableFunction<Long, Instant> eventTime, Collected panes) {
    PipelineOptions options = Runners.streaming(runner, 1);
    if (options instanceof FlinkPipelineOptions flink) {
      // What tidemark's pipelines set: each element a bundle of its own, so that a step hands its
      // watermark on at once, with Beam's bound by time.
      flink.setMaxBundleSize(1L);
      flink.setMaxBundleTimeMills(1_000L);
    }
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply(
            "EveryFiftyMillis",
            GenerateSequence.from(0).withRate(1, EVERY).withTimestampFn(eventTime))
        .apply(
            "ToEvents",
            MapElements.into(TypeDescriptor.of(Event.class))
                .via(n -> new Event(EventKey.of("k"), eventTime.apply(n), 1, "k," + n)))
        .apply("Count", CountPerWindow.of(WINDOWING))
        .get(CountPerWindow.RESULTS)
        .apply(
            "Describe",
            MapElements.into(TypeDescriptors.strings()).via(IdleFlushRuleTest::describe))
        .apply("Collect", panes.sink());
    return pipeline;
  }

  private static String describe(WindowResult result) {
    return result.pane().windowStart().getMillis()
        + " "
        + result.pane().timing()
        + "#"
        + result.pane().index()
        + (result.pane().isFinal() ? " final " : " ")
        + result.count();
  }
}
