package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A record that could not be used: its raw text, why, and where it came from when the source knows
 * (a Kafka topic, partition and offset).
 */
@DefaultCoder(DeadLetter.Coder.class)
public record DeadLetter(String raw, String reason, @Nullable SourcePosition source) {

  public DeadLetter {
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(reason, "reason");
  }

  /** A dead letter from a source that does not say where its records are. */
  public DeadLetter(String raw, String reason) {
    this(raw, reason, null);
  }

  /** The coder of {@link DeadLetter}. */
  public static final class Coder extends AtomicCoder<DeadLetter> {
    private static final Coder INSTANCE = new Coder();
    private static final NullableCoder<SourcePosition> SOURCE =
        NullableCoder.of(SourcePosition.Coder.of());

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(DeadLetter.class), INSTANCE);
    }

    @Override
    public void encode(DeadLetter letter, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(letter.raw, out);
      StringUtf8Coder.of().encode(letter.reason, out);
      SOURCE.encode(letter.source, out);
    }

    @Override
    public DeadLetter decode(InputStream in) throws IOException {
      return new DeadLetter(
          StringUtf8Coder.of().decode(in), StringUtf8Coder.of().decode(in), SOURCE.decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
