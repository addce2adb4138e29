package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.parse.RecordFormat;
import dev.tidemark.transforms.watermark.Watermarks;
import java.util.List;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A recording's lines as a live source would give them, for a test that holds a live pipeline to
 * its replay ({@link RecordReplay}): "replay equals live" in one assertion.
 *
 * <p>The watermark rule is the replay's. Before each line the watermark is the newest event time of
 * the lines before it, less {@code maxOutOfOrderness}, less 1 ms ({@link Watermarks#behind}); each
 * line comes at its event time; a line the format cannot parse comes at the watermark of the moment
 * and moves nothing (it is a dead letter, live and replayed). After the last line the watermark
 * goes to the end of time, so every window closes and expires.
 *
 * <pre>{@code
 * PerWindowResult<String, Click, PageStats> live =
 *     statsPerPage(pipeline.apply(RecordingStream.of(lines, CLICKS, Duration.standardSeconds(2))));
 * PerWindowResult<String, Click, PageStats> replayed = replayStatsPerPage(pipeline, file);
 * PAssert.that(
 *         RecordingStream.differences(
 *             "FinalPanes", text(live.finalPanes()), text(replayed.finalPanes())))
 *     .empty();
 * }</pre>
 *
 * <p>Compare final panes, expired values and dead letters: with allowed lateness a live run's panes
 * before the final one are grouped otherwise than a replay's ({@code docs/library.md}).
 */
public final class RecordingStream {

  private RecordingStream() {}

  /** {@code lines} in order, as a live source would give them under the replay's rule. */
  public static TestStream<String> of(
      List<String> lines, RecordFormat<?> format, Duration maxOutOfOrderness) {
    TestStream.Builder<String> stream = TestStream.create(StringUtf8Coder.of());
    Instant newest = null;
    Instant watermark = Watermarks.MIN;
    for (String line : lines) {
      Instant eventTime = format.eventTimes().apply(line);
      if (newest != null) {
        Instant before = Watermarks.behind(newest, maxOutOfOrderness);
        if (before.isAfter(watermark)) {
          watermark = before;
          stream = stream.advanceWatermarkTo(watermark);
        }
      }
      stream =
          stream.addElements(TimestampedValue.of(line, eventTime == null ? watermark : eventTime));
      if (eventTime != null && (newest == null || eventTime.isAfter(newest))) {
        newest = eventTime;
      }
    }
    return stream.advanceWatermarkToInfinity();
  }

  /**
   * What one of {@code live} and {@code replayed} holds and the other does not, as many times as it
   * differs, each as {@code "live only: X"} or {@code "replayed only: X"}: empty when the two hold
   * the same elements. Counted once both inputs have ended; {@code name} names the step.
   */
  public static PCollection<String> differences(
      String name, PCollection<String> live, PCollection<String> replayed) {
    return PCollectionList.of(live).and(replayed).apply(name, new Differences());
  }

  /** The step of {@link #differences}: the first input is the live one. */
  private static final class Differences
      extends PTransform<PCollectionList<String>, PCollection<String>> {

    @Override
    public PCollection<String> expand(PCollectionList<String> liveAndReplayed) {
      PCollection<KV<String, Integer>> counted =
          PCollectionList.of(liveAndReplayed.get(0).apply("CountLive", counting(1)))
              .and(liveAndReplayed.get(1).apply("CountReplayed", counting(-1)))
              .apply("Both", Flatten.pCollections())
              // Once, when both have ended: the end of the global window.
              .apply(
                  "AtTheEnd",
                  Window.<KV<String, Integer>>configure()
                      .triggering(AfterWatermark.pastEndOfWindow())
                      .withAllowedLateness(Duration.ZERO)
                      .discardingFiredPanes())
              .apply("Sum", Sum.integersPerKey());
      return counted
          .apply("Differing", Filter.by(count -> count.getValue() != 0))
          .apply(
              "Say",
              MapElements.into(TypeDescriptors.strings())
                  .via(
                      count ->
                          (count.getValue() > 0 ? "live only: " : "replayed only: ")
                              + count.getKey()
                              + (Math.abs(count.getValue()) > 1
                                  ? " (" + Math.abs(count.getValue()) + " times)"
                                  : "")));
    }
  }

  private static MapElements<String, KV<String, Integer>> counting(int sign) {
    return MapElements.into(
            TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.integers()))
        .via(element -> KV.of(element, sign));
  }
}
