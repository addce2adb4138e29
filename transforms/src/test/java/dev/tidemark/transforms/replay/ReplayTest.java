package dev.tidemark.transforms.replay;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;

import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.LineShape;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.join.CopyJsonField;
import dev.tidemark.transforms.join.JoinedRecord;
import dev.tidemark.transforms.join.LeftJoinPerWindow;
import dev.tidemark.transforms.join.MergeRecords;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.testing.BeamCounters;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.InMemoryLines;
import dev.tidemark.transforms.testing.PipelineSteps;
import dev.tidemark.transforms.testing.ReplayReference;
import dev.tidemark.transforms.testing.ReplayReference.Recording;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.testing.SuiteOrder;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A long replay emits exactly the panes a live run with the same arrival order would: for every
 * (key, window) the same panes, with the same timing, index, finality and contents, as {@link
 * ReplayReference} computes from the recording, on the DirectRunner and on embedded Flink at
 * parallelism 1, 2 and 4, for a count and for a join.
 */
@Order(SuiteOrder.LONGEST_FIRST)
class ReplayTest {

  private static final Duration OUT_OF_ORDERNESS = Duration.standardSeconds(2);

  // The idle flush is far beyond the replay's length, so no EARLY pane depends on machine speed;
  // speculativeIdleFlush covers it on its own.
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(Duration.standardSeconds(1))
          .withAllowedLateness(Duration.millis(700))
          .withIdleFlush(Duration.standardHours(1));

  private static final EventFormat CSV = CsvEventFormat.keyAndTime().withValue();

  static Stream<Arguments> runners() {
    return Stream.of(
        Arguments.of("DirectRunner", 2),
        Arguments.of("FlinkRunner", 1),
        Arguments.of("FlinkRunner", 2),
        Arguments.of("FlinkRunner", 4));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void countGivesThePredictedPanes(String runner, int parallelism) throws Exception {
    // Each line's value is its number, so a sum also says which records a pane holds.
    List<String> lines = new ArrayList<>();
    for (String line :
        lines(
            GeneratedLines.records(6000)
                .withKeys(5)
                .withOutOfOrderness(Duration.millis(3500))
                .withLateFraction(0.02)
                .withBadFraction(0.01)
                .withSeed(7))) {
      lines.add(line + "," + (lines.size() + 1));
    }
    RecordedLines recording = lines(lines);
    ReplayReference reference =
        ReplayReference.of(new Recording(lines, CSV, OUT_OF_ORDERNESS), WINDOWING);
    assertThat("late beyond the lateness", reference.late.size(), greaterThan(100));
    assertThat("late within the lateness", reference.latePanes(), greaterThan(100L));
    assertThat("thousands of windows", reference.panes.size(), greaterThan(1000));

    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, parallelism));
    PCollectionTuple counted =
        pipeline.apply(
            "Count",
            Replay.of(recording, CSV)
                .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
                .countPerWindow(WINDOWING));
    Collected panes = collect(counted.get(CountPerWindow.RESULTS), ReplayTest::describe);
    Collected late = collectLate(counted);
    Collected dead = collectDead(counted);
    // The pane step makes the results itself: outside it only the late records have a step.
    assertThat(
        PipelineSteps.of(pipeline).stream()
            .filter(step -> step.startsWith("Count/") && !step.startsWith("Count/CountPanes"))
            .toList(),
        everyItem(startsWith("Count/LateRecords")));

    PipelineResult result = pipeline.run();
    assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    assertThat(sorted(panes.snapshot()), equalTo(reference.panes(ReplayReference.Pane::describe)));
    assertThat(sorted(late.snapshot()), equalTo(sorted(reference.late)));
    assertThat(sorted(dead.snapshot()), equalTo(sorted(reference.dead)));
    assertThat(BeamCounters.droppedDueToLateness(result), equalTo(0L));
  }

  static Stream<Arguments> kinds() {
    EventTimeWindowing sliding =
        EventTimeWindowing.sliding(Duration.standardSeconds(2), Duration.millis(500));
    EventTimeWindowing cumulating =
        EventTimeWindowing.cumulating(Duration.millis(500), Duration.standardSeconds(2));
    EventTimeWindowing sessions = EventTimeWindowing.sessions(Duration.millis(300));
    return Stream.of(
        Arguments.of("DirectRunner", 2, sliding),
        Arguments.of("FlinkRunner", 2, sliding),
        Arguments.of("DirectRunner", 2, cumulating),
        Arguments.of("FlinkRunner", 3, cumulating),
        Arguments.of("DirectRunner", 2, sessions),
        Arguments.of("FlinkRunner", 4, sessions));
  }

  /**
   * Sliding and cumulating windows, where a record is in several windows, judged window by window
   * by the watermark it met, and sessions, which merge in the order the records arrived: every pane
   * of every window as the reference predicts it, and each record late beyond the lateness for any
   * of its windows in the late output once.
   */
  @ParameterizedTest(name = "{0} parallelism {1} {2}")
  @MethodSource("kinds")
  void slidingAndCumulatingWindowsGiveThePredictedPanes(
      String runner, int parallelism, EventTimeWindowing kind) throws Exception {
    EventTimeWindowing windowing =
        kind.withAllowedLateness(Duration.millis(700)).withIdleFlush(Duration.standardHours(1));
    List<String> lines = new ArrayList<>();
    for (String line :
        lines(
            GeneratedLines.records(3000)
                .withKeys(4)
                .withOutOfOrderness(Duration.millis(3500))
                .withLateFraction(0.03)
                .withBadFraction(0.01)
                .withSeed(11))) {
      lines.add(line + "," + (lines.size() + 1));
    }
    ReplayReference reference =
        ReplayReference.of(new Recording(lines, CSV, OUT_OF_ORDERNESS), windowing);
    assertThat("late beyond the lateness", reference.late.size(), greaterThan(50));
    assertThat("late within the lateness", reference.latePanes(), greaterThan(50L));

    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, parallelism));
    PCollectionTuple counted =
        pipeline.apply(
            "Count",
            Replay.of(lines(lines), CSV)
                .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
                .countPerWindow(windowing));
    Collected panes = collect(counted.get(CountPerWindow.RESULTS), ReplayTest::describe);
    Collected late = collectLate(counted);

    PipelineResult result = pipeline.run();
    assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    assertThat(sorted(panes.snapshot()), equalTo(reference.panes(ReplayReference.Pane::describe)));
    assertThat(sorted(late.snapshot()), equalTo(sorted(reference.late)));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void joinGivesThePredictedPanes(String runner, int parallelism) throws Exception {
    List<String> orders =
        lines(
            GeneratedLines.records(3000)
                .withKeys(20)
                .withStep(Duration.millis(40))
                .withOutOfOrderness(Duration.millis(3500))
                .withLateFraction(0.03)
                .withSeed(11)
                .withShape(LineShape.S4_ORDERS));
    List<String> coupons =
        lines(
            GeneratedLines.records(800)
                .withKeys(20)
                .withStep(Duration.millis(150))
                .withOutOfOrderness(Duration.millis(3500))
                .withLateFraction(0.03)
                .withSeed(12)
                .withShape(LineShape.S4_COUPONS));
    EventFormat orderFormat =
        JsonEventFormat.withKey("orderBatchId").withTime("orderLastModifyTime");
    EventFormat couponFormat = JsonEventFormat.withKey("orderBatchId").withTime("lastModifyTime");
    MergeRecords merge = CopyJsonField.from("receiveUserId").into("orderSalesmanId");
    ReplayReference reference =
        ReplayReference.of(
            List.of(
                new Recording(orders, orderFormat, OUT_OF_ORDERNESS),
                new Recording(coupons, couponFormat, OUT_OF_ORDERNESS)),
            WINDOWING);
    assertThat("late within the lateness", reference.latePanes(), greaterThan(50L));
    assertThat("late beyond the lateness", reference.late.size(), greaterThan(50));

    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, parallelism));
    PCollectionTuple joined =
        pipeline.apply(
            "Join",
            Replay.leftJoin(
                Replay.of(lines(orders), orderFormat).withMaxOutOfOrderness(OUT_OF_ORDERNESS),
                Replay.of(lines(coupons), couponFormat).withMaxOutOfOrderness(OUT_OF_ORDERNESS),
                WINDOWING,
                merge));
    Collected results = collect(joined.get(LeftJoinPerWindow.JOINED), ReplayTest::describe);
    Collected late = new Collected();
    joined
        .get(LeftJoinPerWindow.LATE_LEFT)
        .apply(
            "LateOrders",
            MapElements.into(TypeDescriptors.strings())
                .via((Expired<Event> record) -> record.value().raw()))
        .apply("CollectLateOrders", late.sink());
    joined
        .get(LeftJoinPerWindow.LATE_RIGHT)
        .apply(
            "LateCoupons",
            MapElements.into(TypeDescriptors.strings())
                .via((Expired<Event> record) -> record.value().raw()))
        .apply("CollectLateCoupons", late.sink());

    PipelineResult result = pipeline.run();
    assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    assertThat(sorted(results.snapshot()), equalTo(expectedJoin(reference, merge)));
    assertThat(sorted(late.snapshot()), equalTo(sorted(reference.late)));
  }

  @Test
  void speculativeIdleFlush() throws Exception {
    // (1) A paced replay: two records of a 5 s window, then, 1.3 s later, one far ahead that
    // closes the window. (2) With an idle flush of 200 ms the window reports EARLY before it
    // closes, then ON_TIME and final with everything. The pause leaves the flush a second to
    // fire while the suite's other classes share the machine's two cores.
    EventTimeWindowing windowing =
        EventTimeWindowing.fixed(Duration.standardSeconds(5)).withIdleFlush(Duration.millis(200));
    RecordedLines recording =
        lines(List.of("k,1600000001000,1", "k,1600000001500,2", "k,1600000009000,4"));
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds("DirectRunner", 1));
    PCollectionTuple counted =
        pipeline.apply("Count", Replay.of(recording, CSV).withRate(0.75).countPerWindow(windowing));
    Collected panes = collect(counted.get(CountPerWindow.RESULTS), ReplayTest::describe);

    assertThat(pipeline.run().waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    List<String> firstWindow =
        panes.snapshot().stream()
            .filter(pane -> pane.startsWith("k,1600000000000-1600000005000 "))
            .sorted()
            .toList();
    assertThat(firstWindow.get(0), startsWith("k,1600000000000-1600000005000 EARLY#0 "));
    assertThat(
        firstWindow,
        hasItem(
            "k,1600000000000-1600000005000 ON_TIME#" + (firstWindow.size() - 1) + " final 2/3"));
  }

  private static String describe(WindowResult result) {
    return result.key()
        + ","
        + result.pane().windowStart().getMillis()
        + "-"
        + result.pane().windowEnd().getMillis()
        + " "
        + result.pane().timing()
        + "#"
        + result.pane().index()
        + (result.pane().isFinal() ? " final " : " ")
        + result.count()
        + "/"
        + result.sum();
  }

  private static String describe(JoinedRecord joined) {
    return joined.key()
        + ","
        + joined.pane().windowStart().getMillis()
        + " "
        + joined.pane().timing()
        + "#"
        + joined.pane().index()
        + (joined.pane().isFinal() ? " final " : " ")
        + joined.record();
  }

  /** Each left record of each predicted pane, with the newest right record of that pane. */
  private static List<String> expectedJoin(ReplayReference reference, MergeRecords merge) {
    List<String> expected = new ArrayList<>();
    for (ReplayReference.Pane pane : reference.panes) {
      List<Event> rights =
          pane.records().stream().filter(event -> event.raw().contains("receiveUserId")).toList();
      Event newest =
          rights.stream()
              .max(Comparator.comparing(Event::eventTime).thenComparing(Event::raw))
              .orElse(null);
      for (Event left : pane.records()) {
        if (!left.raw().contains("receiveUserId")) {
          expected.add(
              pane.key()
                  + ","
                  + pane.windowStart()
                  + " "
                  + pane.timing()
                  + "#"
                  + pane.index()
                  + (pane.isFinal() ? " final " : " ")
                  + merge.merge(left.raw(), newest == null ? null : newest.raw()));
        }
      }
    }
    return sorted(expected);
  }

  private static <T> Collected collect(
      org.apache.beam.sdk.values.PCollection<T> results,
      org.apache.beam.sdk.transforms.SerializableFunction<T, String> describe) {
    Collected collected = new Collected();
    results
        .apply("Describe", MapElements.into(TypeDescriptors.strings()).via(describe))
        .apply("CollectResults", collected.sink());
    return collected;
  }

  private static Collected collectLate(PCollectionTuple counted) {
    Collected late = new Collected();
    counted
        .get(CountPerWindow.LATE)
        .apply(
            "LateLines",
            MapElements.into(TypeDescriptors.strings())
                .via((Expired<Event> record) -> record.value().raw()))
        .apply("CollectLate", late.sink());
    return late;
  }

  private static Collected collectDead(PCollectionTuple counted) {
    Collected dead = new Collected();
    counted
        .get(ParseEvents.DEAD_LETTER)
        .apply("DeadLines", MapElements.into(TypeDescriptors.strings()).via(DeadLetter::raw))
        .apply("CollectDead", dead.sink());
    return dead;
  }

  private static List<String> lines(RecordedLines recording) throws Exception {
    List<String> lines = new ArrayList<>();
    recording.open().forEachRemaining(lines::add);
    return lines;
  }

  private static RecordedLines lines(List<String> lines) {
    return new InMemoryLines(lines);
  }

  private static List<String> sorted(java.util.Collection<String> lines) {
    List<String> sorted = new ArrayList<>(lines);
    sorted.sort(Comparator.naturalOrder());
    return sorted;
  }
}
