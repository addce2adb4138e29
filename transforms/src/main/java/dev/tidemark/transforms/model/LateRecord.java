package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A record that arrived after its window had expired (window end + allowed lateness behind the
 * watermark), captured instead of dropped: its key, event time, window, the watermark it met, and
 * its text. Encoded by {@link LateRecord.Coder}.
 */
public final class LateRecord {

  private final String key;
  private final Instant eventTime;
  private final Instant windowStart;
  private final Instant windowEnd;
  private final Instant watermark;
  private final String record;

  public LateRecord(
      String key,
      Instant eventTime,
      Instant windowStart,
      Instant windowEnd,
      Instant watermark,
      String record) {
    this.key = Objects.requireNonNull(key, "key");
    this.eventTime = Objects.requireNonNull(eventTime, "eventTime");
    this.windowStart = Objects.requireNonNull(windowStart, "windowStart");
    this.windowEnd = Objects.requireNonNull(windowEnd, "windowEnd");
    this.watermark = Objects.requireNonNull(watermark, "watermark");
    this.record = Objects.requireNonNull(record, "record");
  }

  public String key() {
    return key;
  }

  public Instant eventTime() {
    return eventTime;
  }

  public Instant windowStart() {
    return windowStart;
  }

  public Instant windowEnd() {
    return windowEnd;
  }

  /** The watermark when the record arrived: the step's input watermark. */
  public Instant watermark() {
    return watermark;
  }

  /** How far behind the watermark the record's event time was. */
  public Duration lateBy() {
    return new Duration(eventTime, watermark);
  }

  public String record() {
    return record;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    if (!(other instanceof LateRecord)) {
      return false;
    }
    LateRecord that = (LateRecord) other;
    return key.equals(that.key)
        && eventTime.equals(that.eventTime)
        && windowStart.equals(that.windowStart)
        && windowEnd.equals(that.windowEnd)
        && watermark.equals(that.watermark)
        && record.equals(that.record);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, eventTime, windowStart, windowEnd, watermark, record);
  }

  @Override
  public String toString() {
    return "LateRecord{"
        + key
        + " @"
        + eventTime.getMillis()
        + " in ["
        + windowStart.getMillis()
        + ", "
        + windowEnd.getMillis()
        + ") behind watermark "
        + watermark.getMillis()
        + "}";
  }

  /** The coder of {@link LateRecord}. */
  public static final class Coder extends CustomCoder<LateRecord> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(LateRecord late, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(late.key, out);
      InstantCoder.of().encode(late.eventTime, out);
      InstantCoder.of().encode(late.windowStart, out);
      InstantCoder.of().encode(late.windowEnd, out);
      InstantCoder.of().encode(late.watermark, out);
      StringUtf8Coder.of().encode(late.record, out);
    }

    @Override
    public LateRecord decode(InputStream in) throws IOException {
      return new LateRecord(
          StringUtf8Coder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          StringUtf8Coder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
