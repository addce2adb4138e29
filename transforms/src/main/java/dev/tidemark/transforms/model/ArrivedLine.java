package dev.tidemark.transforms.model;

import dev.tidemark.transforms.watermark.Watermarks;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * One text record as its source read it: the text, the source's watermark just before it read the
 * record, the record's position in its recording (line number from 1), and its Kafka position
 * ({@code source}; null for other sources), and the record as its source already parsed it ({@code
 * parsed}; null when it did not, or could not), so the parse step parses it only once; and why the
 * source already knows the record is a dead letter ({@code deadReason}: a line longer than the
 * source's limit comes as its first bytes, which are no record). A live source knows no watermark
 * or line, and says so with {@link #live}.
 */
@DefaultCoder(ArrivedLine.Coder.class)
public record ArrivedLine(
    String text,
    Instant arrivalWatermark,
    long position,
    @Nullable SourcePosition source,
    @Nullable Event parsed,
    @Nullable String deadReason) {

  public ArrivedLine {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(arrivalWatermark, "arrivalWatermark");
  }

  /** A line read in a recording, at line {@code position}, when the watermark was this. */
  public ArrivedLine(String text, Instant arrivalWatermark, long position) {
    this(text, arrivalWatermark, position, null, null, null);
  }

  /** A line its source read whole: nothing but its parse says whether it is a record. */
  public ArrivedLine(
      String text,
      Instant arrivalWatermark,
      long position,
      @Nullable SourcePosition source,
      @Nullable Event parsed) {
    this(text, arrivalWatermark, position, source, parsed, null);
  }

  /** A line from a live source, whose watermark the pipeline reads at run time instead. */
  public static ArrivedLine live(String text) {
    return new ArrivedLine(text, Watermarks.MIN, Event.UNKNOWN_POSITION, null, null, null);
  }

  /** A record from a Kafka source, at {@code source}, and its event if it was parsed already. */
  public static ArrivedLine fromKafka(String text, SourcePosition source, @Nullable Event parsed) {
    return new ArrivedLine(text, Watermarks.MIN, Event.UNKNOWN_POSITION, source, parsed, null);
  }

  /** A record from a Kafka source, at {@code source}, that its source knows is no record. */
  public static ArrivedLine deadFromKafka(String text, SourcePosition source, String deadReason) {
    return new ArrivedLine(text, Watermarks.MIN, Event.UNKNOWN_POSITION, source, null, deadReason);
  }

  /** The coder of {@link ArrivedLine}. */
  public static final class Coder extends AtomicCoder<ArrivedLine> {
    private static final Coder INSTANCE = new Coder();
    private static final NullableCoder<SourcePosition> SOURCE =
        NullableCoder.of(SourcePosition.Coder.of());
    private static final NullableCoder<Event> PARSED = NullableCoder.of(Event.Coder.of());
    private static final NullableCoder<String> DEAD_REASON = NullableCoder.of(StringUtf8Coder.of());

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(ArrivedLine.class), INSTANCE);
    }

    @Override
    public void encode(ArrivedLine line, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(line.text, out);
      InstantCoder.of().encode(line.arrivalWatermark, out);
      VarLongCoder.of().encode(line.position, out);
      SOURCE.encode(line.source, out);
      PARSED.encode(line.parsed, out);
      DEAD_REASON.encode(line.deadReason, out);
    }

    @Override
    public ArrivedLine decode(InputStream in) throws IOException {
      return new ArrivedLine(
          StringUtf8Coder.of().decode(in),
          InstantCoder.of().decode(in),
          VarLongCoder.of().decode(in),
          SOURCE.decode(in),
          PARSED.decode(in),
          DEAD_REASON.decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
