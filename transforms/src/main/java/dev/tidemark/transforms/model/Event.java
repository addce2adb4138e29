package dev.tidemark.transforms.model;

import dev.tidemark.transforms.watermark.Watermarks;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
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
 * One parsed input record: its key, its event time, the value a sum adds up (0 when none is
 * configured), the raw text it was parsed from; and what its source knew when it read it: the
 * watermark ({@link #arrivalWatermark()}; the minimum when the source does not say), its line in a
 * recording ({@link #position()}) and its Kafka position ({@link #source()}; null elsewhere).
 *
 * @param arrivalWatermark the watermark of the source when it read this record, for a recording
 *     replayed deterministically ({@code ReplaySource}); {@link Watermarks#MIN} for a live source,
 *     whose watermark the pipeline reads at run time instead
 * @param position where the record stands in its recording (the line number, from 1), which orders
 *     records that met the same watermark; {@link #UNKNOWN_POSITION} for a live source
 * @param columns the values a query reads from the record beyond its key and time (the arguments of
 *     a SQL query's aggregates), coded by {@link ColumnValuesCoder}; empty for a format that reads
 *     a key, a time and a value
 */
@DefaultCoder(Event.Coder.class)
public record Event(
    EventKey key,
    Instant eventTime,
    long value,
    String raw,
    Instant arrivalWatermark,
    long position,
    @Nullable SourcePosition source,
    List<@Nullable Object> columns) {

  /** {@link #position()} of an event from a source that does not number its records. */
  public static final long UNKNOWN_POSITION = -1;

  public Event {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(eventTime, "eventTime");
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(arrivalWatermark, "arrivalWatermark");
    Objects.requireNonNull(columns, "columns");
  }

  /** An event with no columns beyond its key, time and value. */
  public Event(
      EventKey key,
      Instant eventTime,
      long value,
      String raw,
      Instant arrivalWatermark,
      long position,
      @Nullable SourcePosition source) {
    this(key, eventTime, value, raw, arrivalWatermark, position, source, List.of());
  }

  /** An event from a source that does not say which watermark it met. */
  public Event(EventKey key, Instant eventTime, long value, String raw) {
    this(key, eventTime, value, raw, Watermarks.MIN, UNKNOWN_POSITION, null, List.of());
  }

  /** The same event, with what its source knew when it read it. */
  public Event arrivedAs(ArrivedLine line) {
    return new Event(
        key,
        eventTime,
        value,
        raw,
        line.arrivalWatermark(),
        line.position(),
        line.source(),
        columns);
  }

  @Override
  public String toString() {
    return "Event{" + key + " @" + eventTime.getMillis() + " value=" + value + "}";
  }

  /** The coder of {@link Event}. */
  public static final class Coder extends AtomicCoder<Event> {
    private static final Coder INSTANCE = new Coder();
    private static final NullableCoder<SourcePosition> SOURCE =
        NullableCoder.of(SourcePosition.Coder.of());

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(Event.class), INSTANCE);
    }

    @Override
    public void encode(Event event, OutputStream out) throws IOException {
      EventKey.Coder.of().encode(event.key, out);
      InstantCoder.of().encode(event.eventTime, out);
      VarLongCoder.of().encode(event.value, out);
      StringUtf8Coder.of().encode(event.raw, out);
      InstantCoder.of().encode(event.arrivalWatermark, out);
      VarLongCoder.of().encode(event.position, out);
      SOURCE.encode(event.source, out);
      ColumnValuesCoder.of().encode(event.columns, out);
    }

    @Override
    public Event decode(InputStream in) throws IOException {
      return new Event(
          EventKey.Coder.of().decode(in),
          InstantCoder.of().decode(in),
          VarLongCoder.of().decode(in),
          StringUtf8Coder.of().decode(in),
          InstantCoder.of().decode(in),
          VarLongCoder.of().decode(in),
          SOURCE.decode(in),
          ColumnValuesCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
