package dev.tidemark.transforms.model;

import dev.tidemark.transforms.watermark.Watermarks;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * One parsed input record: its key, its event time, the value a sum adds up (0 when none is
 * configured), the raw text it was parsed from, and the watermark its source had when it read the
 * record ({@link #arrivalWatermark()}; the minimum when the source does not say). Immutable;
 * encoded by {@link Event.Coder}.
 */
public final class Event {

  private final String key;
  private final Instant eventTime;
  private final long value;
  private final String raw;
  private final Instant arrivalWatermark;
  private final long position;

  /** An event from a source that does not say which watermark it met. */
  public Event(String key, Instant eventTime, long value, String raw) {
    this(key, eventTime, value, raw, Watermarks.MIN, UNKNOWN_POSITION);
  }

  public Event(
      String key,
      Instant eventTime,
      long value,
      String raw,
      Instant arrivalWatermark,
      long position) {
    this.key = Objects.requireNonNull(key, "key");
    this.eventTime = Objects.requireNonNull(eventTime, "eventTime");
    this.value = value;
    this.raw = Objects.requireNonNull(raw, "raw");
    this.arrivalWatermark = Objects.requireNonNull(arrivalWatermark, "arrivalWatermark");
    this.position = position;
  }

  /** {@link #position()} of an event from a source that does not number its records. */
  public static final long UNKNOWN_POSITION = -1;

  /**
   * The same event, as read by a source whose watermark was {@code watermark} at that moment, as
   * its record number {@code position}.
   */
  public Event arrivedAt(Instant watermark, long position) {
    return new Event(key, eventTime, value, raw, watermark, position);
  }

  public String key() {
    return key;
  }

  public Instant eventTime() {
    return eventTime;
  }

  public long value() {
    return value;
  }

  public String raw() {
    return raw;
  }

  /**
   * The watermark of the source when it read this record, for a source that replays recorded data
   * deterministically ({@code ReplaySource}); {@link Watermarks#MIN} for a live source, whose
   * watermark the late-capture step reads at run time instead.
   */
  public Instant arrivalWatermark() {
    return arrivalWatermark;
  }

  /**
   * Where the record stands in its recording (the line number, from 1), which orders records that
   * met the same watermark; {@link #UNKNOWN_POSITION} for a live source.
   */
  public long position() {
    return position;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    if (!(other instanceof Event)) {
      return false;
    }
    Event that = (Event) other;
    return key.equals(that.key)
        && eventTime.equals(that.eventTime)
        && value == that.value
        && raw.equals(that.raw)
        && arrivalWatermark.equals(that.arrivalWatermark)
        && position == that.position;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, eventTime, value, raw, arrivalWatermark, position);
  }

  @Override
  public String toString() {
    return "Event{" + key + " @" + eventTime.getMillis() + " value=" + value + "}";
  }

  /** The coder of {@link Event}. */
  public static final class Coder extends CustomCoder<Event> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(Event event, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(event.key, out);
      InstantCoder.of().encode(event.eventTime, out);
      VarLongCoder.of().encode(event.value, out);
      StringUtf8Coder.of().encode(event.raw, out);
      InstantCoder.of().encode(event.arrivalWatermark, out);
      VarLongCoder.of().encode(event.position, out);
    }

    @Override
    public Event decode(InputStream in) throws IOException {
      return new Event(
          StringUtf8Coder.of().decode(in),
          InstantCoder.of().decode(in),
          VarLongCoder.of().decode(in),
          StringUtf8Coder.of().decode(in),
          InstantCoder.of().decode(in),
          VarLongCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
