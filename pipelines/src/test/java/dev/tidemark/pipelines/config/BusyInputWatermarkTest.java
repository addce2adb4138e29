package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

import dev.tidemark.transforms.io.BatchingUnboundedSource;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.testing.Collected;
import dev.tidemark.transforms.testing.Runners;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * On Flink, a window closes while its input never pauses, as during the catch-up on a Kafka
 * backlog. Beam's FlinkRunner passes a step's watermark on only between bundles, and a bundle that
 * ends by time hands it on too late to a step whose input never pauses: with Beam's default bundle
 * of 1,000 elements (batches of 512 records, here) the first window closed after 531,456 to
 * 1,010,176 records had been read, in three runs; with {@link RunnerSettings}' bound, after 72,192
 * in each of three.
 */
class BusyInputWatermarkTest {

  /** Records the endless source has read, per run. */
  private static final Map<String, AtomicLong> READ = new ConcurrentHashMap<>();

  private static final int BATCH = 512;

  @Test
  void aWindowClosesWhileItsInputNeverPauses() throws Exception {
    TidemarkOptions options =
        PipelineOptionsFactory.fromArgs("--parallelism=1").as(TidemarkOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setAttachedMode(false);
    RunnerSettings.apply(options, false);
    String run = UUID.randomUUID().toString();
    READ.put(run, new AtomicLong());
    Collected readWhenClosed = new Collected();

    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Endless", Read.from(BatchingUnboundedSource.of(new EndlessEvents(run), BATCH)))
        .apply(
            "DecidePanes",
            CountPerWindow.ofBatches(EventTimeWindowing.fixed(Duration.standardSeconds(1))))
        .get(CountPerWindow.RESULTS)
        .apply("Final", Filter.by((WindowResult result) -> result.pane().isFinal()))
        .apply(
            "ReadSoFar",
            MapElements.into(TypeDescriptors.strings())
                .via(result -> Long.toString(READ.get(run).get())))
        .apply("Collect", readWhenClosed.sink());
    PipelineResult result = pipeline.run();
    try {
      readWhenClosed.awaitUntil(lines -> !lines.isEmpty(), 120_000);
      List<String> lines = readWhenClosed.snapshot();
      assertThat("a window closed within 2 minutes", lines, not(empty()));
      assertThat(
          "records read when the first window closed",
          Long.parseLong(lines.get(0)),
          lessThan(200_000L));
    } finally {
      Runners.cancel(result);
    }
  }

  /**
   * A source that always has a next record: one key, one record per millisecond of event time, its
   * watermark just behind the latest record.
   */
  private static final class EndlessEvents extends UnboundedSource<Event, NoCheckpoint> {
    private final String run;

    EndlessEvents(String run) {
      this.run = run;
    }

    @Override
    public List<EndlessEvents> split(int desiredNumSplits, PipelineOptions options) {
      return List.of(this);
    }

    @Override
    public UnboundedReader<Event> createReader(
        PipelineOptions options, @Nullable NoCheckpoint checkpointMark) {
      return new Reader();
    }

    @Override
    public Coder<NoCheckpoint> getCheckpointMarkCoder() {
      return SerializableCoder.of(NoCheckpoint.class);
    }

    @Override
    public Coder<Event> getOutputCoder() {
      return Event.Coder.of();
    }

    private final class Reader extends UnboundedReader<Event> {
      private static final long START = 1_700_000_000_000L;
      private final EventKey key = EventKey.of("k");
      private long next;
      private @Nullable Event current;

      @Override
      public boolean start() {
        return advance();
      }

      @Override
      public boolean advance() {
        Instant eventTime = new Instant(START + next++);
        current = new Event(key, eventTime, 1, "");
        READ.get(run).incrementAndGet();
        return true;
      }

      @Override
      public Event getCurrent() {
        if (current == null) {
          throw new NoSuchElementException();
        }
        return current;
      }

      @Override
      public Instant getCurrentTimestamp() {
        return getCurrent().eventTime();
      }

      @Override
      public Instant getWatermark() {
        return current == null
            ? new Instant(START - 1)
            : current.eventTime().minus(Duration.millis(1));
      }

      @Override
      public CheckpointMark getCheckpointMark() {
        return new NoCheckpoint();
      }

      @Override
      public UnboundedSource<Event, ?> getCurrentSource() {
        return EndlessEvents.this;
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
