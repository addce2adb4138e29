package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
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
import java.util.stream.Collectors;
import java.util.stream.LongStream;
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
 * backlog. Beam's FlinkRunner hands a step's watermark on only between bundles, so a step whose
 * input never pauses holds it for as long as its bundles last: with Beam's bounds, 1,000 elements
 * (batches of up to 512 records here) or a second, whichever comes first.
 *
 * <p>The source reads a batch of 512 raw lines every 10 ms or so without ever returning empty, one
 * record per millisecond of event time: some 50 s of event time a second. Every 10,000th record is
 * planted {@link #PLANTED_BEHIND} (5 s) of event time behind the others, and the last is a sentinel
 * an hour behind, late under any bundles. The lines are parsed in the step that gathers them before
 * the shuffle, as a Kafka topic's are ({@code CountPerWindow.ofBatchesParsedBy}): that step is the
 * only one between the source and the step that decides panes. With a live source's bundles of one
 * batch ({@link RunnerSettings.Bundles#EACH_ELEMENT}), the watermark that reaches the step that
 * decides panes is one batch, plus the source's 20 ms between watermarks, behind the records (about
 * 1.5 s of event time), so a planted record's window has closed when it comes and it is late (Flink
 * delivers a watermark and the records sent after it in order, and one key keeps them in one line).
 * With Beam's bounds the watermark is up to a second of the source's time behind (some 50 s of
 * event time), and the planted records are on time: the test asks that three in four be late; with
 * Beam's bounds none of the 19 was, in each of two runs, and with the live bounds all 19 are.
 */
class BusyInputWatermarkTest {

  private static final long START = 1_700_000_000_000L;

  /** Records in all, one per millisecond of event time but the planted ones and the sentinel. */
  private static final long RECORDS = 200_000;

  /** Every this many records, one is planted {@link #PLANTED_BEHIND} behind the others. */
  private static final long PLANT_EVERY = 10_000;

  private static final Duration PLANTED_BEHIND = Duration.standardSeconds(5);

  /** The last record, an hour behind: late whatever the bundles, it says all have been judged. */
  private static final long SENTINEL = RECORDS - 1;

  @Test
  void recordsBehindTheOthersAreLateWhileTheSourceNeverPauses() throws Exception {
    TidemarkOptions options =
        PipelineOptionsFactory.fromArgs("--parallelism=1").as(TidemarkOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setAttachedMode(false);
    RunnerSettings.apply(options, false, RunnerSettings.Bundles.EACH_ELEMENT);
    Collected late = new Collected();

    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply(
            "Endless",
            Read.from(
                BatchingUnboundedSource.of(new EndlessLines(), 512, Duration.standardSeconds(1))))
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
      String sentinel = EndlessLines.line(SENTINEL);
      late.awaitUntil(records -> records.contains(sentinel), 120_000);
      List<String> records = late.snapshot();
      assertThat("the sentinel is late", records, hasItem(sentinel));
      List<String> planted =
          LongStream.range(1, SENTINEL / PLANT_EVERY + 1)
              .mapToObj(number -> EndlessLines.line(number * PLANT_EVERY))
              .collect(Collectors.toList());
      long plantedLate = planted.stream().filter(records::contains).count();
      assertThat(
          "planted records late while the source never paused, of " + planted.size(),
          plantedLate,
          greaterThanOrEqualTo(planted.size() * 3L / 4));
    } finally {
      Runners.cancel(result);
    }
  }

  /**
   * A source that has a next line at every call, up to {@link #RECORDS}, and takes 10 ms over each
   * 512th, as a reader that waits for its broker would, without returning empty: one key, one
   * record per millisecond of event time, but the planted ones and the sentinel; its watermark is
   * just behind the newest event time. Each line is {@code key,event time}.
   */
  private static final class EndlessLines extends UnboundedSource<String, NoCheckpoint> {
    private static final long PAUSE_EVERY = 512;
    private static final long PAUSE_NANOS = 10_000_000;

    /** The line of record {@code number}. */
    static String line(long number) {
      return "k," + eventTime(number);
    }

    private static long eventTime(long number) {
      if (number == SENTINEL) {
        return START + number - Duration.standardHours(1).getMillis();
      }
      return number > 0 && number % PLANT_EVERY == 0
          ? START + number - PLANTED_BEHIND.getMillis()
          : START + number;
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
