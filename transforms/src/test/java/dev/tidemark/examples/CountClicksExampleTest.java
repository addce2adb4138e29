package dev.tidemark.examples;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;

import dev.tidemark.transforms.io.kafka.IdleAwareTimestampPolicyFactory;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The library guide's example ({@code docs/library.md}), kept as a test so it cannot rot: the code
 * between the GUIDE markers below is pasted into the guide, and {@link #theGuideShowsThisCode}
 * fails when the two differ. It uses tidemark only through public API, from a package of its own.
 */
@ExtendWith(TestPipelineExtension.class)
class CountClicksExampleTest {

  // GUIDE-START
  static final EventTimeWindowing WINDOWING =
      EventTimeWindowing.fixed(Duration.standardSeconds(5))
          .withAllowedLateness(Duration.standardMinutes(1))
          .withIdleFlush(Duration.standardSeconds(10));

  /** Reads "key,epochMillis" lines from Kafka, with a watermark no empty partition can stall. */
  static PCollection<String> readClicks(Pipeline pipeline, String bootstrapServers) {
    return pipeline
        .apply(
            "ReadClicks",
            KafkaIO.<String, String>read()
                .withBootstrapServers(bootstrapServers)
                .withTopic("clicks")
                .withKeyDeserializer(StringDeserializer.class)
                .withValueDeserializer(StringDeserializer.class)
                .withTimestampPolicyFactory(
                    IdleAwareTimestampPolicyFactory.<String, String>byEventTime(
                            record ->
                                CsvEventFormat.keyAndTime()
                                    .eventTimes()
                                    .apply(record.getKV().getValue()))
                        .withMaxOutOfOrderness(Duration.standardSeconds(1))
                        .withIdleTimeout(Duration.standardSeconds(10)))
                .withoutMetadata())
        .apply("Values", Values.create());
  }

  /** Counts clicks per key and window: RESULTS, LATE and DEAD_LETTER, nothing lost. */
  static PCollectionTuple countClicks(PCollection<String> lines) {
    PCollectionTuple parsed = lines.apply("Parse", ParseEvents.with(CsvEventFormat.keyAndTime()));
    return parsed
        .get(ParseEvents.EVENTS)
        .apply("Count", CountPerWindow.of(WINDOWING))
        .and(ParseEvents.DEAD_LETTER, parsed.get(ParseEvents.DEAD_LETTER));
  }

  // GUIDE-END

  @Test
  void countsOnTimeRecordsAndKeepsLateAndBadOnes(TestPipeline pipeline) {
    // GUIDE-TEST-START
    Instant start = new Instant(1_586_489_565_000L);
    TestStream<String> clicks =
        TestStream.create(StringUtf8Coder.of())
            .addElements(
                TimestampedValue.of("01,1586489566000", start.plus(1000)),
                TimestampedValue.of("01,1586489567000", start.plus(2000)),
                TimestampedValue.of("not a click", start))
            // The window [565000, 570000) closes; a minute and more later, a click for it.
            .advanceWatermarkTo(start.plus(Duration.standardSeconds(70)))
            .addElements(TimestampedValue.of("01,1586489568000", start.plus(3000)))
            .advanceWatermarkToInfinity();
    PCollectionTuple counted = countClicks(pipeline.apply(clicks));

    // The window's final pane counts the two clicks that came in time.
    PAssert.that(
            counted
                .get(CountPerWindow.RESULTS)
                .apply("FinalPanes", Filter.by((WindowResult r) -> r.pane().isFinal()))
                .apply(
                    "Counts", MapElements.into(TypeDescriptors.longs()).via(WindowResult::count)))
        .containsInAnyOrder(2L);
    PAssert.that(
            counted
                .get(CountPerWindow.LATE)
                .apply(
                    "Late",
                    MapElements.into(TypeDescriptors.strings())
                        .via((Expired<Event> late) -> late.value().raw())))
        .containsInAnyOrder("01,1586489568000");
    PAssert.that(
            counted
                .get(ParseEvents.DEAD_LETTER)
                .apply("Dead", MapElements.into(TypeDescriptors.strings()).via(DeadLetter::raw)))
        .containsInAnyOrder("not a click");
    pipeline.run().waitUntilFinish();
    // GUIDE-TEST-END
  }

  @Test
  void kafkaPipelineBuildsWithoutABroker() {
    Pipeline pipeline = Pipeline.create(PipelineOptionsFactory.create());
    countClicks(readClicks(pipeline, "localhost:9092"));
    // Building the graph checks every transform and coder; running it needs a broker (see
    // IdleAwareTimestampPolicyIT for the policy against a real one).
    pipeline.traverseTopologically(new Pipeline.PipelineVisitor.Defaults());
  }

  @Test
  void theGuideShowsThisCode() throws Exception {
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(CountClicksExampleTest.class, "GUIDE-START", "GUIDE-END")));
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(
                CountClicksExampleTest.class, "GUIDE-TEST-START", "GUIDE-TEST-END")));
  }
}
