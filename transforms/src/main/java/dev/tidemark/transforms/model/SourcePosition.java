package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/** Where a record came from in Kafka: topic, partition and offset, to find a bad record again. */
@DefaultCoder(SourcePosition.Coder.class)
public record SourcePosition(String topic, int partition, long offset) {

  public SourcePosition {
    Objects.requireNonNull(topic, "topic");
  }

  @Override
  public String toString() {
    return topic + "-" + partition + "@" + offset;
  }

  /** The coder of {@link SourcePosition}. */
  public static final class Coder extends AtomicCoder<SourcePosition> {
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(SourcePosition.class), INSTANCE);
    }

    @Override
    public void encode(SourcePosition position, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(position.topic, out);
      VarIntCoder.of().encode(position.partition, out);
      VarLongCoder.of().encode(position.offset, out);
    }

    @Override
    public SourcePosition decode(InputStream in) throws IOException {
      return new SourcePosition(
          StringUtf8Coder.of().decode(in),
          VarIntCoder.of().decode(in),
          VarLongCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
