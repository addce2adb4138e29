package dev.tidemark.transforms.testing;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.BooleanSupplier;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * A {@link TestStream}'s elements and watermark advances, played on embedded Flink in exactly their
 * order into every keyed step, at any parallelism.
 *
 * <p>Flink's TestStream is one source task whose elements are spread over the next step's tasks, so
 * at parallelism 2 or more a keyed step's watermark is the minimum over several channels: an
 * element that comes after an advance in the stream can reach the step on one channel before the
 * advance has come on the other, and be judged under the older watermark. Here the stream is one
 * split, played by one source task into one channel of each keyed step; the other source tasks have
 * no split and end at once, which sets their channels' watermark to the end of time. The playing
 * task starts only when they have finished and every other task is running, so that each keyed step
 * has read their ends before anything of the stream (it reads its channels in the order they had
 * input); the cluster's REST API ({@link EmbeddedFlinkRest}) says so.
 *
 * <p>A source task emits its reader's watermark only every so often ({@code
 * autoWatermarkInterval}), not when the watermark moves. So after each advance the reader gives no
 * element until the runner has asked for the watermark in order to emit it: the task emits it at
 * once, on the same thread, before it reads the next element. The task also asks for the watermark
 * to tell whether its input has ended, without emitting it; the reader tells the two apart by the
 * caller, the method of Beam's Flink source reader that emits watermarks. Were that method renamed,
 * the reader would wait for ever and the test would time out, not pass wrongly. (Written by hand:
 * neither Beam nor Flink has a source that emits a watermark when it moves.)
 *
 * <p>Steps downstream must hand the watermark on after each element (a bundle of one element), or a
 * step's bundle holds it back. Processing time cannot pass. A job that never gets ready leaves the
 * stream unplayed: the test's timeout ends it.
 */
public final class ExactOrderStream<T> extends PTransform<PBegin, PCollection<T>> {

  /** The name of the step that reads the stream. */
  private static final String READING_STEP = "ReadInExactOrder";

  /** The method of Beam's Flink source reader that asks for the watermark to emit it. */
  private static final String EMITTING_METHOD = "maybeEmitWatermark";

  private final TestStream<T> stream;
  private final EmbeddedFlinkRest cluster;

  /** Whether the runner asks for a reader's watermark in order to emit it. */
  private static boolean askedToEmit() {
    return StackWalker.getInstance()
        .walk(frames -> frames.anyMatch(f -> f.getMethodName().contains(EMITTING_METHOD)));
  }

  private ExactOrderStream(TestStream<T> stream, EmbeddedFlinkRest cluster) {
    this.stream = stream;
    this.cluster = cluster;
  }

  /**
   * Plays {@code stream}, whose events are elements and watermark advances only, on the embedded
   * cluster that {@code cluster} configures.
   */
  public static <T> ExactOrderStream<T> of(TestStream<T> stream, EmbeddedFlinkRest cluster) {
    for (TestStream.Event<T> event : stream.getEvents()) {
      if (event instanceof TestStream.ProcessingTimeEvent) {
        throw new IllegalArgumentException(
            "an exact-order stream cannot advance processing time: " + event);
      }
    }
    return new ExactOrderStream<>(stream, cluster);
  }

  @Override
  public PCollection<T> expand(PBegin input) {
    return input.apply(READING_STEP, Read.from(new PlayingSource<>(stream, cluster)));
  }

  /** How many steps (elements and watermark advances) a reader has played. */
  record Played(int steps) implements UnboundedSource.CheckpointMark, Serializable {
    @Override
    public void finalizeCheckpoint() {}
  }

  /** One step of the stream: an element, or else the watermark it advances to. */
  private record Step<T>(@Nullable TimestampedValue<T> element, @Nullable Instant advance) {}

  /**
   * The one split, that plays the stream; it travels encoded, as the stream's own coder writes it.
   */
  private static final class PlayingSource<T> extends UnboundedSource<T, Played> {
    private final Coder<T> valueCoder;
    private final byte[] encodedStream;
    private final EmbeddedFlinkRest cluster;

    PlayingSource(TestStream<T> stream, EmbeddedFlinkRest cluster) {
      this.valueCoder = stream.getValueCoder();
      this.cluster = cluster;
      try {
        this.encodedStream =
            CoderUtils.encodeToByteArray(TestStream.TestStreamCoder.of(valueCoder), stream);
      } catch (CoderException e) {
        throw new IllegalArgumentException("the stream's elements cannot be encoded", e);
      }
    }

    @Override
    public List<PlayingSource<T>> split(int desiredNumSplits, PipelineOptions options) {
      return List.of(this);
    }

    @Override
    public UnboundedReader<T> createReader(PipelineOptions options, @Nullable Played played)
        throws CoderException {
      List<Step<T>> steps = new ArrayList<>();
      TestStream<T> stream =
          CoderUtils.decodeFromByteArray(TestStream.TestStreamCoder.of(valueCoder), encodedStream);
      for (TestStream.Event<T> event : stream.getEvents()) {
        if (event instanceof TestStream.ElementEvent) {
          for (TimestampedValue<T> element : ((TestStream.ElementEvent<T>) event).getElements()) {
            steps.add(new Step<>(element, null));
          }
        } else {
          steps.add(new Step<>(null, ((TestStream.WatermarkEvent<T>) event).getWatermark()));
        }
      }
      int idleSourceTasks = options.as(FlinkPipelineOptions.class).getParallelism() - 1;
      return new PlayingReader<>(
          this,
          steps,
          played == null ? 0 : played.steps(),
          () -> cluster.allStartedAndFinished(READING_STEP, idleSourceTasks));
    }

    @Override
    public Coder<Played> getCheckpointMarkCoder() {
      return SerializableCoder.of(Played.class);
    }

    @Override
    public Coder<T> getOutputCoder() {
      return valueCoder;
    }
  }

  /**
   * Plays the steps, once the job is ready for them; after each watermark advance, it waits until
   * the runner has emitted it.
   */
  private static final class PlayingReader<T> extends UnboundedSource.UnboundedReader<T> {
    private final PlayingSource<T> source;
    private final List<Step<T>> steps;
    private int played;
    private @Nullable TimestampedValue<T> current;
    private Instant watermark = BoundedWindow.TIMESTAMP_MIN_VALUE;
    private boolean awaitingEmission;
    private final BooleanSupplier jobReady;
    private boolean started;

    PlayingReader(
        PlayingSource<T> source, List<Step<T>> steps, int played, BooleanSupplier jobReady) {
      this.source = source;
      this.steps = steps;
      this.played = played;
      this.jobReady = jobReady;
    }

    @Override
    public boolean start() {
      return advance();
    }

    @Override
    public boolean advance() {
      current = null;
      started = started || jobReady.getAsBoolean();
      if (!started) {
        return false;
      }
      while (!awaitingEmission && played < steps.size()) {
        Step<T> step = steps.get(played++);
        TimestampedValue<T> element = step.element();
        Instant advance = step.advance();
        if (element != null) {
          current = element;
          return true;
        }
        if (advance != null) {
          watermark = advance;
          awaitingEmission = true;
        }
      }
      return false;
    }

    @Override
    public T getCurrent() {
      return currentElement().getValue();
    }

    @Override
    public Instant getCurrentTimestamp() {
      return currentElement().getTimestamp();
    }

    private TimestampedValue<T> currentElement() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override
    public Instant getWatermark() {
      if (awaitingEmission && askedToEmit()) {
        awaitingEmission = false;
      }
      return watermark;
    }

    @Override
    public UnboundedSource.CheckpointMark getCheckpointMark() {
      return new Played(played);
    }

    @Override
    public UnboundedSource<T, ?> getCurrentSource() {
      return source;
    }

    @Override
    public void close() {}
  }
}
