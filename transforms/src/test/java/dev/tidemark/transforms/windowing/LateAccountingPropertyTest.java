package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.testing.BeamCounters;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.CountedOutputs;
import dev.tidemark.transforms.testing.ExactOrderStream;
import dev.tidemark.transforms.testing.PlayedStream;
import dev.tidemark.transforms.testing.PresetCountPerWindow;
import dev.tidemark.transforms.testing.SuiteOrder;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Max;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine against its specification, and the accounting invariant, on many seeded random streams
 * (on time, late within the lateness, late beyond it, malformed, several keys, records and
 * watermarks exactly at the edges of windows), each in a random configuration (window size,
 * lateness, out-of-orderness, every pane or final panes only; on the DirectRunner, processing time
 * passing for the idle flush). Each stream runs through {@link CountPerWindow} (tidemark's pane
 * engine) and {@link PresetCountPerWindow} (Beam's trigger machinery under the windowing preset) in
 * one pipeline, and through {@link AggregatePerWindow} with Beam's {@code Max}, an aggregate other
 * than the count.
 *
 * <p>Every runner plays each stream in exactly its order: the DirectRunner's TestStream delivers
 * each element after the watermark advances before it, and on Flink, at parallelism 1, 2 and 4,
 * {@link ExactOrderStream} does, with one-element bundles (see {@link PlayedStream}). So on each:
 * every record in is in exactly one place, a window's final pane, the late output or the
 * dead-letter output, for both, and Beam dropped nothing on its own; the engine and the preset
 * agree on each final count and sum and each late record; and the engine's final counts, sums and
 * maxima, late records, LATE panes and dead letters equal the reference computation's.
 *
 * <p>The streams are independent, and run two at a time.
 */
@Execution(ExecutionMode.CONCURRENT)
@Order(SuiteOrder.LONGEST_FIRST)
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LateAccountingPropertyTest {

  /** 20 streams on the DirectRunner, and one on Flink at each of parallelism 1, 2 and 4. */
  static Stream<Arguments> streams() {
    return streamsFrom(1, 1L, 3L, 5L);
  }

  /**
   * 20 other streams on the DirectRunner (so that the two properties see 40 configurations between
   * them), and one each on Flink at parallelism 1, 2 and 4: each Flink run starts a cluster of its
   * own, and the batches go through the same engine.
   */
  static Stream<Arguments> batchStreams() {
    return streamsFrom(21, 7L, 8L, 9L);
  }

  /**
   * 20 DirectRunner streams with the seeds from {@code firstSeed} on, and Flink streams at
   * parallelism 1, 2 and 4 with the seeds given in that order.
   */
  private static Stream<Arguments> streamsFrom(
      long firstSeed, long flinkSeed1, long flinkSeed2, long flinkSeed4) {
    return Stream.concat(
        LongStream.range(firstSeed, firstSeed + 20)
            .mapToObj(seed -> Arguments.of("DirectRunner", 2, seed)),
        Stream.of(
            Arguments.of("FlinkRunner", 1, flinkSeed1),
            Arguments.of("FlinkRunner", 2, flinkSeed2),
            Arguments.of("FlinkRunner", 4, flinkSeed4)));
  }

  @ParameterizedTest(name = "{0} parallelism {1} seed {2}")
  @MethodSource("streams")
  void engineAgreesWithThePresetAndEveryRecordEndsInExactlyOnePlace(
      String runner, int parallelism, long seed) {
    RandomStream input = new RandomStream(seed, runner.equals("DirectRunner"));
    EventTimeWindowing windowing = input.windowing;
    PlayedStream<String> played = PlayedStream.of(input.stream, runner, parallelism);
    Pipeline pipeline = played.pipeline();
    PCollectionTuple parsed =
        pipeline
            .apply(played.stream())
            .apply("Parse", ParseEvents.with(CsvEventFormat.keyAndTime().withValue()));
    PCollection<Event> events = parsed.get(ParseEvents.EVENTS);
    CountedOutputs engine =
        CountedOutputs.of(
            "Engine", parsed, events.apply("CountOnTheEngine", CountPerWindow.of(windowing)));
    CountedOutputs preset =
        CountedOutputs.of(
            "Preset", parsed, events.apply("CountOnThePreset", PresetCountPerWindow.of(windowing)));
    Collected finalMaxima = finalMaxima(events, windowing);

    PipelineResult result = pipeline.run();
    assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));

    // (1) The invariant, exactly, for both.
    assertEveryRecordInOnePlace("engine", engine, input);
    assertEveryRecordInOnePlace("preset", preset, input);
    assertThat(
        "Beam dropped nothing silently", BeamCounters.droppedDueToLateness(result), equalTo(0L));

    // (2) The engine gives what its specification gives.
    assertThat(engine.finalCountsAndSums(), equalTo(preset.finalCountsAndSums()));
    assertThat(Set.copyOf(engine.lateRecords()), equalTo(Set.copyOf(preset.lateRecords())));
    // (3) And both what the reference says. The dead letters come from the one parse step both
    // share, so only the reference, which the generator wrote on its own, can tell them wrong.
    assertThat(Set.copyOf(engine.deadLetters()), equalTo(input.expectedDeadLetters));
    assertThat(Set.copyOf(engine.lateRecords()), equalTo(input.expectedLate));
    assertThat(engine.finalCountsAndSums(), equalTo(asComparable(input.expectedFinal)));
    assertOwnLatePanes("engine", engine, input);
    assertThat(asMap(finalMaxima.snapshot()), equalTo(input.expectedMax));
  }

  /**
   * The largest value of each window's final pane, by {@link AggregatePerWindow} with Beam's own
   * {@code Max}: the engine with an aggregate other than the count, as
   * "key,windowStart,windowEnd=max".
   */
  private static Collected finalMaxima(PCollection<Event> events, EventTimeWindowing windowing) {
    AggregatePerWindow<String, Long, Long> max = AggregatePerWindow.of(windowing, Max.ofLongs());
    Collected maxima = new Collected();
    events
        .apply(
            "KeyAndValue",
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                .via(event -> KV.of(event.key().text(), event.value())))
        .apply("MaxOnTheEngine", max)
        .get(max.panes())
        .apply(
            "FinalMaxima",
            Filter.by(
                pane ->
                    pane.getValue().getKey().isFinal() && !pane.getValue().getKey().isWithdrawn()))
        .apply(
            "MaxLines",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    pane ->
                        pane.getKey()
                            + ","
                            + pane.getValue().getKey().windowStart().getMillis()
                            + ","
                            + pane.getValue().getKey().windowEnd().getMillis()
                            + "="
                            + pane.getValue().getValue()))
        .apply("CollectMaxima", maxima.sink());
    return maxima;
  }

  /** "a=b" lines as a map from a to b, each a once. */
  private static Map<String, Long> asMap(List<String> lines) {
    Map<String, Long> map = new TreeMap<>();
    for (String line : lines) {
      String[] keyAndValue = line.split("=");
      assertThat(
          "one final pane for " + keyAndValue[0],
          map.put(keyAndValue[0], Long.parseLong(keyAndValue[1])),
          equalTo(null));
    }
    return map;
  }

  /**
   * The same streams read in batches, as a batching source gives them, and parsed where they are
   * gathered ({@link CountPerWindow#ofBatchesParsedBy}): the records a batch's watermark bound
   * proves on time are counted before the shuffle. The invariant holds everywhere, and no partial
   * aggregate ever reaches a window its watermark had closed (the pane step would fail the run); on
   * every runner, whose stream plays in exactly its order, the results are the reference's, record
   * for record, as they are for the records counted one by one.
   */
  @ParameterizedTest(name = "{0} parallelism {1} seed {2}")
  @MethodSource("batchStreams")
  void batchesCountedBeforeTheShuffleEndInExactlyOnePlaceToo(
      String runner, int parallelism, long seed) {
    RandomStream input = new RandomStream(seed, runner.equals("DirectRunner"));
    PlayedStream<SourceBatch<String>> played = PlayedStream.of(input.batches, runner, parallelism);
    Pipeline pipeline = played.pipeline();
    // Each record parsed in the step that counts its batch, as a Kafka source's are.
    PCollectionTuple counted =
        pipeline
            .apply(played.stream())
            .apply(
                "CountInBatches",
                CountPerWindow.ofBatchesParsedBy(
                    input.windowing,
                    ParseEvents.with(CsvEventFormat.keyAndTime().withValue()).inTheGatheringStep(),
                    ParseEvents.DEAD_LETTER));
    CountedOutputs batched = CountedOutputs.of("Batched", counted, counted);

    PipelineResult result = pipeline.run();
    assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));

    assertEveryRecordInOnePlace("batched", batched, input);
    assertThat(Set.copyOf(batched.deadLetters()), equalTo(input.expectedDeadLetters));
    assertThat(Set.copyOf(batched.lateRecords()), equalTo(input.expectedLate));
    assertThat(batched.finalCountsAndSums(), equalTo(asComparable(input.expectedFinal)));
    assertOwnLatePanes("batched", batched, input);
  }

  /** The kinds of windows of {@link #kindStreams}, by seed. */
  private static final List<WindowKind.Shape> KINDS =
      List.of(WindowKind.Shape.SLIDING, WindowKind.Shape.CUMULATING, WindowKind.Shape.SESSIONS);

  /**
   * 18 streams in sliding, cumulating and session windows on the DirectRunner, and one on Flink at
   * each of parallelism 1, 2 and 4, each kind by its seed ({@link #KINDS}); half of them come in
   * batches, counted before the shuffle where their bound proves them on time (sessions take every
   * record alone).
   */
  static Stream<Arguments> kindStreams() {
    return streamsFrom(41, 61L, 62L, 63L)
        .filter(
            arguments ->
                arguments.get()[0].equals("FlinkRunner") || (long) arguments.get()[2] < 59);
  }

  /**
   * Sliding, cumulating and session windows, where a record is in several windows and each window
   * judges it on its own, or sessions merge as records come: every final pane, every late record
   * and every LATE pane is the reference's, which finds a record's windows by trying every start;
   * each (record, window) pair is counted in the window's final pane or the record is in the late
   * output, once however many windows it missed; and tidemark's counters say how many records
   * missed some windows and how many missed all.
   */
  @ParameterizedTest(name = "{0} parallelism {1} seed {2}")
  @MethodSource("kindStreams")
  void everyWindowOfEveryKindJudgesEachRecordOnItsOwn(String runner, int parallelism, long seed) {
    WindowKind.Shape shape = KINDS.get((int) (seed % KINDS.size()));
    RandomStream input = new RandomStream(seed, runner.equals("DirectRunner"), shape);
    boolean inBatches = seed % 4 >= 2;
    PCollectionTuple counted;
    Pipeline pipeline;
    PCollectionTuple parsed;
    Collected finalMaxima = null;
    if (inBatches) {
      PlayedStream<SourceBatch<String>> played =
          PlayedStream.of(input.batches, runner, parallelism);
      pipeline = played.pipeline();
      counted =
          pipeline
              .apply(played.stream())
              .apply(
                  "CountOnTheEngine",
                  CountPerWindow.ofBatchesParsedBy(
                      input.windowing,
                      ParseEvents.with(CsvEventFormat.keyAndTime().withValue())
                          .inTheGatheringStep(),
                      ParseEvents.DEAD_LETTER));
      parsed = counted;
    } else {
      PlayedStream<String> played = PlayedStream.of(input.stream, runner, parallelism);
      pipeline = played.pipeline();
      parsed =
          pipeline
              .apply(played.stream())
              .apply("Parse", ParseEvents.with(CsvEventFormat.keyAndTime().withValue()));
      PCollection<Event> events = parsed.get(ParseEvents.EVENTS);
      counted = events.apply("CountOnTheEngine", CountPerWindow.of(input.windowing));
      finalMaxima = finalMaxima(events, input.windowing);
    }
    CountedOutputs engine = CountedOutputs.of("Engine", parsed, counted);

    PipelineResult result = pipeline.run();
    assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));

    // (1) What the reference says, window by window.
    List<String> lateLines = engine.lateRecords();
    assertThat(
        "final panes (" + input + ")",
        engine.finalCountsAndSums(),
        equalTo(asComparable(input.expectedFinal)));
    assertThat(Set.copyOf(lateLines), equalTo(input.expectedLate));
    assertThat(Set.copyOf(engine.deadLetters()), equalTo(input.expectedDeadLetters));
    // (2) Each (record, window) pair in one place, each record late once at most.
    assertThat(
        "(record, window) pairs counted in final panes",
        engine.countedInFinalPanes(),
        equalTo(input.expectedCountedPairs));
    assertThat("no record is late twice", Set.copyOf(lateLines).size(), equalTo(lateLines.size()));
    assertOwnLatePanes("engine", engine, input);
    if (finalMaxima != null) {
      assertThat(asMap(finalMaxima.snapshot()), equalTo(input.expectedMax));
    }
    // (3) The counters: records that missed some windows, and all late records.
    assertThat(
        BeamCounters.tidemark(result, "CountOnTheEngine", TidemarkMetrics.LATE_RECORDS),
        equalTo((long) input.expectedLate.size()));
    assertThat(
        BeamCounters.tidemark(result, "CountOnTheEngine", TidemarkMetrics.PARTLY_LATE_RECORDS),
        equalTo((long) input.expectedPartlyLate));
  }

  /**
   * Unless it writes final panes only, the engine gives each record that comes after its window
   * closed, but before it expired, a LATE pane of its own as it comes, before the window's final
   * pane. (The preset's panes are grouped by bundle, so only the engine is held to this.)
   */
  private static void assertOwnLatePanes(String what, CountedOutputs outputs, RandomStream input) {
    assertThat(
        what + ": a LATE pane per record late within the lateness (" + input + ")",
        outputs.latePanesBeforeTheFinal(),
        equalTo(input.windowing.finalPaneOnly() ? 0 : input.expectedLateWithinLateness));
  }

  private static void assertEveryRecordInOnePlace(
      String what, CountedOutputs outputs, RandomStream input) {
    List<String> lateLines = outputs.lateRecords();
    assertThat(
        what + ": records in = counted in final panes + late + dead letters",
        outputs.countedInFinalPanes() + lateLines.size() + outputs.deadLetters().size(),
        equalTo((long) input.inputCount));
    assertThat(
        what + ": no record is late twice",
        new HashSet<>(lateLines).size(),
        equalTo(lateLines.size()));
  }

  private static Map<String, List<Long>> asComparable(Map<String, long[]> panes) {
    Map<String, List<Long>> comparable = new TreeMap<>();
    panes.forEach((k, v) -> comparable.put(k, List.of(v[0], v[1])));
    return comparable;
  }
}
