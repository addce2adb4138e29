package dev.tidemark.transforms.replay;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;

import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.RecordFormat;
import java.util.List;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.testing.TestStream.ElementEvent;
import org.apache.beam.sdk.testing.TestStream.WatermarkEvent;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A recording as a live stream gets the replay's watermark rule: before each line, the newest event
 * time before it, less the out-of-orderness, less 1 ms; each line at its event time, a line that is
 * no record at the watermark of the moment; the end of time after the last line.
 */
class RecordingStreamTest {

  /** "seconds" or anything else, which is no record. */
  private static final RecordFormat<Long> SECONDS =
      RecordFormat.of(
          raw -> {
            try {
              return Long.parseLong(raw) * 1000;
            } catch (NumberFormatException e) {
              throw new BadRecordException("not a number");
            }
          },
          Instant::new);

  @Test
  void eachLineMeetsTheWatermarkItsReplayGivesIt() {
    TestStream<String> stream =
        RecordingStream.of(List.of("10", "12", "nope", "11", "20"), SECONDS, Duration.millis(2000));

    assertThat(
        stream.getEvents().stream().map(RecordingStreamTest::describe).toList(),
        contains(
            "10 at 10000",
            "watermark 7999",
            "12 at 12000",
            "watermark 9999",
            "nope at 9999",
            "11 at 11000",
            "20 at 20000",
            "watermark the end of time"));
  }

  private static String describe(TestStream.Event<String> event) {
    if (event instanceof ElementEvent<String> elements) {
      TimestampedValue<String> line = elements.getElements().iterator().next();
      return line.getValue() + " at " + line.getTimestamp().getMillis();
    }
    Instant watermark = ((WatermarkEvent<String>) event).getWatermark();
    return "watermark "
        + (watermark.equals(BoundedWindow.TIMESTAMP_MAX_VALUE)
            ? "the end of time"
            : Long.toString(watermark.getMillis()));
  }
}
