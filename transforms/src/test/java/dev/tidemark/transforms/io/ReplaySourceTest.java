package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.testing.BeamCounters;
import dev.tidemark.transforms.testing.CountedOutputs;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.testing.SuiteOrder;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A recorded stream, replayed from two files matched by a glob, gives the same final counts, the
 * same late records and the same dead letters on the DirectRunner and on embedded Flink at
 * parallelism 1, 2 and 4, and they are the ones a straightforward reading of the files in name
 * order predicts; and the live rules, applied to a source faster than any live one, lose nothing.
 * Every pane of a replay is checked in {@code ReplayTest}.
 */
@Order(SuiteOrder.LONGEST_FIRST)
class ReplaySourceTest {

  private static final Duration OUT_OF_ORDERNESS = Duration.standardSeconds(2);
  private static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(Duration.standardSeconds(1))
          .withAllowedLateness(Duration.millis(500));
  private static final EventFormat FORMAT = CsvEventFormat.keyAndTime();

  @TempDir static Path directory;

  static Stream<Arguments> runners() {
    return Stream.of(
        Arguments.of("DirectRunner", 1),
        Arguments.of("FlinkRunner", 1),
        Arguments.of("FlinkRunner", 2),
        Arguments.of("FlinkRunner", 4));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void replayGivesThePredictedResultsOnEveryRunner(String runner, int parallelism)
      throws Exception {
    List<String> lines = new ArrayList<>();
    Iterator<String> generated =
        GeneratedLines.records(3000)
            .withKeys(4)
            .withOutOfOrderness(Duration.standardSeconds(3))
            .withLateFraction(0.02)
            .withBadFraction(0.01)
            .withSeed(7)
            .open();
    generated.forEachRemaining(lines::add);
    Files.write(directory.resolve("part-1.csv"), lines.subList(0, 1500));
    Files.write(directory.resolve("part-2.csv"), lines.subList(1500, lines.size()));
    Prediction predicted = predict(lines);
    assertThat("the recording has late records", predicted.late.size(), greaterThan(30));

    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, parallelism));
    PCollectionTuple counted =
        pipeline.apply(
            "Count",
            Replay.of(FileLines.matching(directory.resolve("part-*.csv").toString()), FORMAT)
                .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
                .countPerWindow(WINDOWING));
    CountedOutputs outputs = CountedOutputs.of(counted, counted);

    PipelineResult result = pipeline.run();
    assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    assertThat(
        "Beam dropped nothing silently", BeamCounters.droppedDueToLateness(result), equalTo(0L));
    assertThat(outputs.finalCounts(), equalTo(predicted.finals));
    assertThat(Set.copyOf(outputs.lateRecords()), equalTo(predicted.late));
    assertThat(outputs.lateRecords().size(), equalTo(predicted.late.size()));
    assertThat(Set.copyOf(outputs.deadLetters()), equalTo(predicted.dead));
  }

  @ParameterizedTest(name = "{0} parallelism {1}")
  @MethodSource("runners")
  void liveRulesOnAFastSourceLoseNothing(String runner, int parallelism) throws Exception {
    // The replay read as fast as the runner can, but judged by the runtime watermark, as a live
    // source is: which records are late then depends on timing, but none may be lost.
    Pipeline pipeline = Pipeline.create(Runners.untilTheStreamEnds(runner, parallelism));
    PCollectionTuple parsed =
        pipeline.apply(
            "Replay",
            Replay.of(
                    GeneratedLines.records(3000)
                        .withKeys(4)
                        .withOutOfOrderness(Duration.standardSeconds(3))
                        .withLateFraction(0.02)
                        .withBadFraction(0.01)
                        .withSeed(8),
                    FORMAT)
                .withMaxOutOfOrderness(OUT_OF_ORDERNESS)
                .readAndParse());
    PCollectionTuple counted =
        parsed.get(ParseEvents.EVENTS).apply("Count", CountPerWindow.of(WINDOWING));
    CountedOutputs outputs = CountedOutputs.of(parsed, counted);

    PipelineResult result = pipeline.run();
    assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));
    assertThat(
        "records in = counted in final panes + late + dead letters",
        outputs.countedInFinalPanes() + outputs.lateRecords().size() + outputs.deadLetters().size(),
        equalTo(3000L));
    assertThat(
        "Beam dropped nothing silently", BeamCounters.droppedDueToLateness(result), equalTo(0L));
  }

  /** What reading the lines in order under bounded out-of-orderness says must come out. */
  private static Prediction predict(List<String> lines) {
    Prediction prediction = new Prediction();
    Instant maxEventTime = null;
    for (String line : lines) {
      Instant watermark =
          maxEventTime == null ? Watermarks.MIN : Watermarks.behind(maxEventTime, OUT_OF_ORDERNESS);
      Instant eventTime;
      String key;
      try {
        eventTime = FORMAT.parse(line).eventTime();
        key = FORMAT.parse(line).key().text();
      } catch (BadRecordException e) {
        prediction.dead.add(line);
        continue;
      }
      maxEventTime = maxEventTime == null ? eventTime : Watermarks.latest(maxEventTime, eventTime);
      IntervalWindow window = WINDOWING.windowOf(eventTime);
      if (WINDOWING.isExpired(window, watermark)) {
        prediction.late.add(line);
      } else {
        prediction.finals.merge(
            key + "," + window.start().getMillis() + "," + window.end().getMillis(), 1L, Long::sum);
      }
    }
    return prediction;
  }

  private static final class Prediction {
    final TreeMap<String, Long> finals = new TreeMap<>();
    final Set<String> late = new HashSet<>();
    final Set<String> dead = new HashSet<>();
  }
}
