package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>The idle flush (2 s) is shorter than the time a 3 s window stays open, so a flush counted from
 * a window's first record, as Beam's {@code AfterProcessingTime.pastFirstElementInPane()} counts
 * it, would give every window of the steady stream an EARLY pane.
 *
 * <p>"Steady" is a precondition the test checks, not one it assumes: a machine that stalls the JVM
 * for as long as the idle flush (a loaded CI host) stops the watermark for that long, and then an
 * EARLY pane is the rule working. Each record's wall-clock arrival is watched as it enters the
 * count ({@link #LONGEST_GAP}); a run in which two records came a second or more apart was not a
 * steady stream, and is run again, at most {@link #ATTEMPTS} times in all. A steady run that gives
 * an EARLY pane fails.
 */
class IdleFlushRuleTest {

  /** The start of a 3 s window. */
  private static final Instant BASE_TIME = new Instant(1_600_000_002_000L);

  private static final Duration WINDOW = Duration.standardSeconds(3);
  private static final Duration EVERY = Duration.millis(50);
  private static final Duration IDLE_FLUSH = Duration.standardSeconds(2);
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(WINDOW).withIdleFlush(IDLE_FLUSH);

  /** The longest gap, in wall-clock millis, between two records entering the count in this run. */
  private static final AtomicLong LONGEST_GAP = new AtomicLong();

  private static final AtomicLong LAST_ARRIVAL = new AtomicLong();

  /** A gap this long means the run was not steady: half the idle flush. */
  private static final long UNSTEADY_MILLIS = IDLE_FLUSH.getMillis() / 2;

  private static final int ATTEMPTS = 3;
  private static final long RECORDS_PER_WINDOW = WINDOW.getMillis() / EVERY.getMillis();

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void aSteadyStreamGivesOnePanePerWindowAndNoEarlyPane(String runner) throws Exception {
    List<String> gaps = new ArrayList<>();
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      List<String> firstTwo = firstTwoWindowsOfASteadyStream(runner);
      if (LONGEST_GAP.get() < UNSTEADY_MILLIS) {
        // (3) One pane per window, ON_TIME and final, holding all its records: none EARLY.
        assertThat(
            firstTwo,
            containsInAnyOrder(
                BASE_TIME.getMillis() + " ON_TIME#0 final " + RECORDS_PER_WINDOW,
                BASE_TIME.plus(WINDOW).getMillis() + " ON_TIME#0 final " + RECORDS_PER_WINDOW));
        return;
      }
      gaps.add(LONGEST_GAP.get() + " ms");
    }
    fail("the machine stalled in every run, records came up to " + gaps + " apart: no steady run");
  }

  /** The panes of the first two windows of a stream whose event time moves with the wall clock. */
  private static List<String> firstTwoWindowsOfASteadyStream(String runner) throws Exception {
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
    String third = Long.toString(BASE_TIME.plus(WINDOW.multipliedBy(2)).getMillis());
    return panes.snapshot().stream().filter(p -> !p.startsWith(third)).toList();
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
    LONGEST_GAP.set(0);
    LAST_ARRIVAL.set(0);
    pipeline
        .apply(
            "EveryFiftyMillis",
            GenerateSequence.from(0).withRate(1, EVERY).withTimestampFn(eventTime))
        .apply(
            "ToEvents",
            MapElements.into(TypeDescriptor.of(Event.class))
                .via(
                    n -> {
                      watchArrival();
                      return new Event(EventKey.of("k"), eventTime.apply(n), 1, "k," + n);
                    }))
        .apply("Count", CountPerWindow.of(WINDOWING))
        .get(CountPerWindow.RESULTS)
        .apply(
            "Describe",
            MapElements.into(TypeDescriptors.strings()).via(IdleFlushRuleTest::describe))
        .apply("Collect", panes.sink());
    return pipeline;
  }

  /** Notes the wall-clock gap since the record before ({@link #LONGEST_GAP}). */
  private static void watchArrival() {
    long now = System.currentTimeMillis();
    long last = LAST_ARRIVAL.getAndSet(now);
    if (last > 0) {
      LONGEST_GAP.accumulateAndGet(now - last, Math::max);
    }
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
