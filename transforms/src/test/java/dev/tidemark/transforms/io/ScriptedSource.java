package dev.tidemark.transforms.io;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * An unbounded source that plays a script: records, each with its timestamp and the watermark the
 * reader gives once it has read it, and gaps, where the reader has no next record for one call. Its
 * checkpoint mark is the number of script steps read.
 */
final class ScriptedSource extends UnboundedSource<String, ScriptedSource.Position> {

  /** One step of the script; a record, or a gap if {@code value} is null. */
  record Step(@Nullable String value, long timestamp, long watermarkAfter) implements Serializable {
    static Step record(String value, long timestamp, long watermarkAfter) {
      return new Step(value, timestamp, watermarkAfter);
    }

    static Step gap() {
      return new Step(null, 0, Long.MIN_VALUE);
    }
  }

  /** How many steps a reader has played. */
  record Position(int steps) implements UnboundedSource.CheckpointMark, Serializable {
    @Override
    public void finalizeCheckpoint() {}
  }

  private final List<Step> script;
  private final boolean deduping;

  ScriptedSource(List<Step> script, boolean deduping) {
    this.script = List.copyOf(script);
    this.deduping = deduping;
  }

  @Override
  public List<ScriptedSource> split(int desiredNumSplits, PipelineOptions options) {
    return List.of(this);
  }

  @Override
  public UnboundedReader<String> createReader(
      PipelineOptions options, @Nullable Position checkpointMark) {
    return new Reader(checkpointMark == null ? 0 : checkpointMark.steps());
  }

  @Override
  public Coder<Position> getCheckpointMarkCoder() {
    return SerializableCoder.of(Position.class);
  }

  @Override
  public Coder<String> getOutputCoder() {
    return StringUtf8Coder.of();
  }

  @Override
  public boolean requiresDeduping() {
    return deduping;
  }

  private final class Reader extends UnboundedReader<String> {
    private int played;
    private @Nullable Step current;
    private Instant watermark = new Instant(Long.MIN_VALUE / 1000);

    Reader(int played) {
      this.played = played;
    }

    @Override
    public boolean start() throws IOException {
      return advance();
    }

    @Override
    public boolean advance() {
      if (played == script.size()) {
        current = null;
        return false;
      }
      Step step = script.get(played++);
      if (step.value() == null) {
        current = null;
        return false;
      }
      current = step;
      watermark = new Instant(step.watermarkAfter());
      return true;
    }

    @Override
    public String getCurrent() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return current.value();
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return new Instant(current.timestamp());
    }

    @Override
    public Instant getWatermark() {
      return watermark;
    }

    @Override
    public CheckpointMark getCheckpointMark() {
      return new Position(played);
    }

    @Override
    public UnboundedSource<String, ?> getCurrentSource() {
      return ScriptedSource.this;
    }

    @Override
    public void close() {}
  }
}
