package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.io.kafka.KafkaLines;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.SourcePosition;
import java.io.Serializable;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecordCoder;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestPipelineExtension;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Reify;
import org.apache.beam.sdk.transforms.WithFailures;
import org.apache.beam.sdk.transforms.WithTimestamps;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ParseRecords} gives a user's own type every rule of tidemark's own parse step: each record
 * at its event time, and as dead letters, with their reasons and Kafka positions, the lines its
 * format refuses, those its source cut, those from too far ahead of the clock or from before 1973,
 * and those stamped by their source later than their own event time.
 */
@ExtendWith(TestPipelineExtension.class)
class ParseRecordsTest {

  /** A reading of the user's own. */
  record Reading(String sensor, long atMillis) implements Serializable {}

  private static final RecordFormat<Reading> READINGS =
      RecordFormat.of(
          raw -> {
            String[] fields = raw.split(",");
            if (fields.length != 2) {
              throw new BadRecordException("expected sensor,atMillis");
            }
            return new Reading(fields[0], Long.parseLong(fields[1]));
          },
          reading -> new Instant(reading.atMillis()));

  private static final long NOW = System.currentTimeMillis();
  private static final SourcePosition OFFSET_7 = new SourcePosition("readings", 0, 7);

  @Test
  void eachRecordAtItsEventTimeAndEveryOtherLineADeadLetterWithItsReason(TestPipeline pipeline) {
    PCollection<ArrivedLine> lines =
        pipeline
            .apply(
                Create.of(
                    ArrivedLine.live("s1," + (NOW - 5_000)),
                    ArrivedLine.live("no reading"),
                    ArrivedLine.live("s2," + (NOW + Duration.standardHours(1).getMillis())),
                    ArrivedLine.live("s3,1700"),
                    ArrivedLine.deadFromKafka(
                        "s4,1", OFFSET_7, "longer than 10 bytes; cut (line 3)"),
                    ArrivedLine.live("s5," + (NOW - 90_000))))
            // The source stamps each line a minute ago: the last reading is older than that.
            .apply(WithTimestamps.of(line -> new Instant(NOW - 60_000)));

    WithFailures.Result<PCollection<Reading>, DeadLetter> parsed =
        lines.apply(
            ParseRecords.ofArrivedLines(READINGS, SerializableCoder.of(Reading.class))
                .withMaxFutureSkew(Duration.standardMinutes(15)));

    PAssert.that(
            parsed
                .output()
                .apply("Reify", Reify.timestamps())
                .apply(
                    "SensorAndTimestamp",
                    MapElements.into(TypeDescriptors.strings())
                        .via(
                            (TimestampedValue<Reading> reading) ->
                                reading.getValue().sensor()
                                    + "@"
                                    + reading.getTimestamp().getMillis())))
        .containsInAnyOrder("s1@" + (NOW - 5_000));
    PAssert.that(
            parsed
                .failures()
                .apply(
                    "Reasons",
                    MapElements.into(TypeDescriptors.strings())
                        .via(
                            letter ->
                                letter.raw()
                                    + " | "
                                    + reasonShape(letter.reason())
                                    + (letter.source() == null ? "" : " | at " + letter.source()))))
        .containsInAnyOrder(
            "no reading | expected sensor,atMillis",
            "s2," + (NOW + Duration.standardHours(1).getMillis()) + " | ahead of the clock",
            "s3,1700 | before 1973",
            "s4,1 | longer than 10 bytes; cut (line 3) | at " + OFFSET_7,
            "s5," + (NOW - 90_000) + " | before the source's timestamp");
    pipeline.run().waitUntilFinish();
  }

  /** The part of a reason that says which rule refused the line. */
  private static String reasonShape(String reason) {
    if (reason.contains("ahead of the clock")) {
      return "ahead of the clock";
    }
    // Phrases, not numbers: a reason's epoch milliseconds can hold any digits, "1973" among them.
    if (reason.contains("is before the timestamp")) {
      return "before the source's timestamp";
    }
    if (reason.contains("the earliest accepted")) {
      return "before 1973";
    }
    return reason;
  }

  @Test
  void kafkaRecordsKeepTheirPlaceInTheTopic(TestPipeline pipeline) {
    PCollection<KafkaRecord<String, String>> records =
        pipeline.apply(
            Create.of(kafkaRecord(5, "s1," + (NOW - 5_000)), kafkaRecord(6, "no reading"))
                .withCoder(KafkaRecordCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of())));

    WithFailures.Result<PCollection<Reading>, DeadLetter> parsed =
        records.apply(
            ParseRecords.of(
                READINGS, SerializableCoder.of(Reading.class), KafkaLines.withPositions()));

    PAssert.that(
            parsed
                .output()
                .apply("Sensors", MapElements.into(TypeDescriptors.strings()).via(Reading::sensor)))
        .containsInAnyOrder("s1");
    PAssert.that(
            parsed
                .failures()
                .apply(
                    "Where",
                    MapElements.into(TypeDescriptors.strings())
                        .via(letter -> letter.raw() + " at " + letter.source())))
        .containsInAnyOrder("no reading at " + new SourcePosition("readings", 3, 6));
    pipeline.run().waitUntilFinish();
  }

  private static KafkaRecord<String, String> kafkaRecord(long offset, String value) {
    return new KafkaRecord<>(
        "readings", 3, offset, NOW - 60_000, KafkaTimestampType.CREATE_TIME, null, "k", value);
  }
}
