package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.io.ScriptedSource.Position;
import dev.tidemark.transforms.io.ScriptedSource.Step;
import dev.tidemark.transforms.model.SourceBatch;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class BatchingUnboundedSourceTest {

  /** A bound by time that no batch of these tests reaches on the machine's clock. */
  private static final Duration LONG = Duration.standardHours(1);

  @Test
  void aBatchHoldsUpToTheLimitInOrderAtItsEarliestTimestamp() throws Exception {
    UnboundedReader<SourceBatch<String>> reader =
        reader(
            List.of(
                Step.record("a", 30, 0),
                Step.record("b", 10, 0),
                Step.record("c", 20, 0),
                Step.record("d", 40, 0)),
            3);

    // (1) The first batch is full: three records, each at its own timestamp, at the earliest.
    assertThat(reader.start(), is(true));
    assertThat(reader.getCurrent().records(), contains(at("a", 30), at("b", 10), at("c", 20)));
    assertThat(reader.getCurrentTimestamp(), equalTo(new Instant(10)));
    // (2) A full batch did not read past its last record: the next one starts at d.
    assertThat(reader.advance(), is(true));
    assertThat(reader.getCurrent().records(), contains(at("d", 40)));
    // (3) Nothing more to read.
    assertThat(reader.advance(), is(false));
  }

  @Test
  void aBatchEndsWhenTheWrappedReaderHasNoNextRecordYet() throws Exception {
    UnboundedReader<SourceBatch<String>> reader =
        reader(
            List.of(
                Step.record("a", 1, 0), Step.gap(), Step.record("b", 2, 0), Step.record("c", 3, 0)),
            100);

    // (1) A quiet source is not waited for: the batch is what was at hand.
    assertThat(reader.start(), is(true));
    assertThat(reader.getCurrent().records(), contains(at("a", 1)));
    // (2) The next batch starts with the records that came after the gap.
    assertThat(reader.advance(), is(true));
    assertThat(reader.getCurrent().records(), contains(at("b", 2), at("c", 3)));
  }

  @Test
  void aBatchEndsOnceItHasBeenGatheredForItsLongestTime() throws Exception {
    List<Step> script =
        List.of(
            Step.record("a", 1, 0),
            Step.record("b", 2, 0),
            Step.record("c", 3, 0),
            Step.record("d", 4, 0),
            Step.record("e", 5, 0));
    ScriptedSource scripted = new ScriptedSource(script, false);
    // A clock that moves 10 ms each time the reader looks at it, as a source whose records keep
    // coming just in time would: 25 ms of gathering holds three records.
    AtomicLong nanos = new AtomicLong();
    UnboundedReader<SourceBatch<String>> reader =
        new BatchingReader<>(
            BatchingUnboundedSource.of(scripted, 100, Duration.millis(25)),
            scripted.createReader(PipelineOptionsFactory.create(), null),
            () -> nanos.addAndGet(10_000_000L));

    // (1) The first batch ends after 30 ms, with the records read by then and not one past them.
    assertThat(reader.start(), is(true));
    assertThat(reader.getCurrent().records(), contains(at("a", 1), at("b", 2), at("c", 3)));
    // (2) The next batch gathers for its own 25 ms, from d.
    assertThat(reader.advance(), is(true));
    assertThat(reader.getCurrent().records(), contains(at("d", 4), at("e", 5)));
  }

  @Test
  void aBatchMustBeGatheredForSomeTime() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                BatchingUnboundedSource.of(
                    new ScriptedSource(List.of(), false), 10, Duration.ZERO));

    assertThat(refused.getMessage(), containsString("maxGathering"));
  }

  @Test
  void theBoundIsTheHighestWatermarkGivenBeforeTheBatchAndNeverGoesBack() throws Exception {
    UnboundedReader<SourceBatch<String>> reader =
        reader(
            List.of(
                Step.record("a", 100, 50),
                Step.record("b", 120, 70),
                Step.gap(),
                Step.record("c", 110, 60),
                Step.record("d", 130, 90),
                Step.gap(),
                Step.record("e", 140, 80)),
            10);

    // (1) The first batch's bound is the watermark at its first record, a's; after b the
    // reader's watermark is b's.
    assertThat(reader.start(), is(true));
    assertThat(reader.getCurrent().watermarkBound(), equalTo(new Instant(50)));
    assertThat(reader.getWatermark(), equalTo(new Instant(70)));
    // (2) The next batch's bound is the watermark given before it, not d's, which it moves to.
    assertThat(reader.advance(), is(true));
    assertThat(reader.getCurrent().watermarkBound(), equalTo(new Instant(70)));
    assertThat(reader.getWatermark(), equalTo(new Instant(90)));
    // (3) The wrapped reader goes back to 80 after e; the batching reader keeps 90.
    assertThat(reader.advance(), is(true));
    assertThat(reader.getCurrent().watermarkBound(), equalTo(new Instant(90)));
    assertThat(reader.getWatermark(), equalTo(new Instant(90)));
  }

  @Test
  void aCheckpointAfterABatchIsTheWrappedReadersAfterItsLastRecord() throws Exception {
    List<Step> script =
        List.of(Step.record("a", 1, 0), Step.record("b", 2, 0), Step.record("c", 3, 0));
    UnboundedReader<SourceBatch<String>> reader = reader(script, 2);
    reader.start();

    Position mark = (Position) reader.getCheckpointMark();

    // (1) Two steps read: a restore resumes at c, which is in no batch yet.
    assertThat(mark.steps(), equalTo(2));
    UnboundedReader<SourceBatch<String>> restored =
        BatchingUnboundedSource.of(new ScriptedSource(script, false), 2, LONG)
            .createReader(PipelineOptionsFactory.create(), mark);
    assertThat(restored.start(), is(true));
    assertThat(restored.getCurrent().records(), contains(at("c", 3)));
  }

  @Test
  void aSourceThatNeedsDeduplicationIsRefused() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> BatchingUnboundedSource.of(new ScriptedSource(List.of(), true), 10, LONG));

    assertThat(refused.getMessage(), containsString("deduplicated by id"));
  }

  @Test
  void aBatchSurvivesItsCoder() throws Exception {
    SourceBatch<String> batch = new SourceBatch<>(List.of(at("a", 5), at("b", 3)), new Instant(2));

    CoderProperties.coderDecodeEncodeEqual(
        BatchingUnboundedSource.of(new ScriptedSource(List.of(), false), 10, LONG).getOutputCoder(),
        batch);
  }

  /** A record of a batch: {@code value} with its timestamp, {@code millis}. */
  private static TimestampedValue<String> at(String value, long millis) {
    return TimestampedValue.of(value, new Instant(millis));
  }

  private static UnboundedReader<SourceBatch<String>> reader(List<Step> script, int maxRecords)
      throws Exception {
    return BatchingUnboundedSource.of(new ScriptedSource(script, false), maxRecords, LONG)
        .createReader(PipelineOptionsFactory.create(), null);
  }
}
