package dev.tidemark.transforms.model;

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
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A record that arrived after its window had expired (window end + allowed lateness behind the
 * watermark), captured instead of dropped: its key, event time, window, the watermark it met, its
 * text, and where it came from when the source knows.
 */
@DefaultCoder(LateRecord.Coder.class)
public record LateRecord(
    EventKey key,
    Instant eventTime,
    Instant windowStart,
    Instant windowEnd,
    Instant watermark,
    String record,
    @Nullable SourcePosition source) {

  public LateRecord {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(eventTime, "eventTime");
    Objects.requireNonNull(windowStart, "windowStart");
    Objects.requireNonNull(windowEnd, "windowEnd");
    Objects.requireNonNull(watermark, "watermark");
    Objects.requireNonNull(record, "record");
  }

  /** A late record from a source that does not say where its records are. */
  public LateRecord(
      EventKey key,
      Instant eventTime,
      Instant windowStart,
      Instant windowEnd,
      Instant watermark,
      String record) {
    this(key, eventTime, windowStart, windowEnd, watermark, record, null);
  }

  /** {@code event}, which came after its {@code window} had expired under {@code watermark}. */
  public static LateRecord of(Event event, IntervalWindow window, Instant watermark) {
    return new LateRecord(
        event.key(),
        event.eventTime(),
        window.start(),
        window.end(),
        watermark,
        event.raw(),
        event.source());
  }

  /** How far behind the watermark the record's event time was. */
  public Duration lateBy() {
    return new Duration(eventTime, watermark);
  }

  /** The coder of {@link LateRecord}. */
  public static final class Coder extends AtomicCoder<LateRecord> {
    private static final Coder INSTANCE = new Coder();
    private static final NullableCoder<SourcePosition> SOURCE =
        NullableCoder.of(SourcePosition.Coder.of());

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(LateRecord.class), INSTANCE);
    }

    @Override
    public void encode(LateRecord late, OutputStream out) throws IOException {
      EventKey.Coder.of().encode(late.key, out);
      InstantCoder.of().encode(late.eventTime, out);
      InstantCoder.of().encode(late.windowStart, out);
      InstantCoder.of().encode(late.windowEnd, out);
      InstantCoder.of().encode(late.watermark, out);
      StringUtf8Coder.of().encode(late.record, out);
      SOURCE.encode(late.source, out);
    }

    @Override
    public LateRecord decode(InputStream in) throws IOException {
      return new LateRecord(
          EventKey.Coder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          StringUtf8Coder.of().decode(in),
          SOURCE.decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
