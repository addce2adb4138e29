package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasItem;

import dev.tidemark.transforms.io.BatchingUnboundedSource;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.io.Serializable;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.locks.LockSupport;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * On Flink, the watermark moves on while a source never pauses, as during the catch-up on a Kafka
 * backlog. Beam's FlinkRunner hands a step's watermark on only between bundles; a bundle that ends
 * by time only schedules that, and a step whose input never pauses has usually begun its next
 * bundle by then, so it is a bundle that ends by count that hands it on: with Beam's 1,000-element
 * bundles, once every 1,000 batches of up to 512 records.
 *
 * <p>The source reads a batch of 512 raw lines every 10 ms or so without ever returning empty, and
 * plants one record 150 s of event time behind the others as its 300,000th, in batch 586. The lines
 * are parsed in the step that gathers them before the shuffle, as a Kafka topic's are ({@code
 * CountPerWindow.ofBatchesParsedBy}): that step is the only one between the source and the step
 * that decides panes. With a live source's bundles of one batch ({@link
 * RunnerSettings.Bundles#EACH_ELEMENT}; before them, of 100), the watermark that reaches the step
 * that decides panes is at most that many batches, plus the source's own time between watermarks,
 * behind the records: the planted record's window has closed when it comes, and it is late (Flink
 * delivers a watermark and the records sent after it in order). With Beam's 1,000 it was on time in
 * two runs of three, and no record was late.
 */
class BusyInputWatermarkTest {

  private static final long START = 1_700_000_000_000L;

  /** The planted record: the 300,000th, one per millisecond of event time before it. */
  private static final long PLANTED = 300_000;

  private static final Duration PLANTED_BEHIND = Duration.standardSeconds(150);

  @Test
  void aRecordFarBehindTheOthersIsLateWhileTheSourceNeverPauses() throws Exception {
    TidemarkOptions options =
        PipelineOptionsFactory.fromArgs("--parallelism=1").as(TidemarkOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setAttachedMode(false);
    RunnerSettings.apply(options, false, RunnerSettings.Bundles.EACH_ELEMENT);
    Collected late = new Collected();

    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Endless", Read.from(BatchingUnboundedSource.of(new EndlessLines(), 512)))
        .apply(
            "DecidePanes",
            CountPerWindow.ofBatchesParsedBy(
                EventTimeWindowing.fixed(Duration.standardSeconds(1)),
                ParseEvents.with(CsvEventFormat.keyAndTime()).inTheGatheringStep(),
                ParseEvents.DEAD_LETTER))
        .get(CountPerWindow.LATE)
        .apply(
            "Record",
            MapElements.into(TypeDescriptors.strings())
                .via((Expired<Event> record) -> record.value().raw()))
        .apply("Collect", late.sink());
    PipelineResult result = pipeline.run();
    try {
      late.awaitUntil(records -> !records.isEmpty(), 120_000);
      List<String> records = late.snapshot();
      assertThat(
          "late records while the source never paused",
          records,
          hasItem(EndlessLines.line(PLANTED)));
    } finally {
      Runners.cancel(result);
    }
  }

  /**
   * A source that has a next line at every call, up to 350,000, and takes 10 ms over each 512th, as
   * a reader that waits for its broker would, without returning empty: one key, one record per
   * millisecond of event time, except {@link #PLANTED}, which is {@link #PLANTED_BEHIND} behind;
   * its watermark is just behind the newest event time. Each line is {@code key,event time}.
   */
  private static final class EndlessLines extends UnboundedSource<String, NoCheckpoint> {
    private static final long RECORDS = 350_000;
    private static final long PAUSE_EVERY = 512;
    private static final long PAUSE_NANOS = 10_000_000;

    /** The line of record {@code number}. */
    static String line(long number) {
      return "k," + eventTime(number);
    }

    private static long eventTime(long number) {
      return number == PLANTED ? START + number - PLANTED_BEHIND.getMillis() : START + number;
    }

    @Override
    public List<EndlessLines> split(int desiredNumSplits, PipelineOptions options) {
      return List.of(this);
    }

    @Override
    public UnboundedReader<String> createReader(
        PipelineOptions options, @Nullable NoCheckpoint checkpointMark) {
      return new Reader();
    }

    @Override
    public Coder<NoCheckpoint> getCheckpointMarkCoder() {
      return SerializableCoder.of(NoCheckpoint.class);
    }

    @Override
    public Coder<String> getOutputCoder() {
      return StringUtf8Coder.of();
    }

    private final class Reader extends UnboundedReader<String> {
      private long next;
      private long newest = START - 1;
      private long currentTime;
      private @Nullable String current;

      @Override
      public boolean start() {
        return advance();
      }

      @Override
      public boolean advance() {
        if (next == RECORDS) {
          current = null;
          return false;
        }
        long number = next++;
        if (number % PAUSE_EVERY == 0) {
          LockSupport.parkNanos(PAUSE_NANOS);
        }
        currentTime = eventTime(number);
        newest = Math.max(newest, currentTime);
        current = line(number);
        return true;
      }

      @Override
      public String getCurrent() {
        if (current == null) {
          throw new NoSuchElementException();
        }
        return current;
      }

      @Override
      public Instant getCurrentTimestamp() {
        getCurrent();
        return new Instant(currentTime);
      }

      @Override
      public Instant getWatermark() {
        return new Instant(newest - 1);
      }

      @Override
      public CheckpointMark getCheckpointMark() {
        return new NoCheckpoint();
      }

      @Override
      public UnboundedSource<String, ?> getCurrentSource() {
        return EndlessLines.this;
      }

      @Override
      public void close() {}
    }
  }

  /** Nothing to resume from: the source starts over. */
  private static final class NoCheckpoint implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public void finalizeCheckpoint() {}
  }
}
