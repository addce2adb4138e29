package dev.tidemark.transforms.join;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * One left record of one pane of a {@link LeftJoinPerWindow}, merged with its match (or with none):
 * the join key, the window, the pane's timing, index and finality, and the merged text. Encoded by
 * {@link JoinedRecord.Coder}.
 */
public final class JoinedRecord {

  private final String key;
  private final Instant windowStart;
  private final Instant windowEnd;
  private final Timing timing;
  private final long paneIndex;
  private final boolean isFinal;
  private final boolean matched;
  private final String record;

  public JoinedRecord(
      String key,
      Instant windowStart,
      Instant windowEnd,
      Timing timing,
      long paneIndex,
      boolean isFinal,
      boolean matched,
      String record) {
    this.key = Objects.requireNonNull(key, "key");
    this.windowStart = Objects.requireNonNull(windowStart, "windowStart");
    this.windowEnd = Objects.requireNonNull(windowEnd, "windowEnd");
    this.timing = Objects.requireNonNull(timing, "timing");
    this.paneIndex = paneIndex;
    this.isFinal = isFinal;
    this.matched = matched;
    this.record = Objects.requireNonNull(record, "record");
  }

  public String key() {
    return key;
  }

  public Instant windowStart() {
    return windowStart;
  }

  public Instant windowEnd() {
    return windowEnd;
  }

  public Timing timing() {
    return timing;
  }

  public long paneIndex() {
    return paneIndex;
  }

  public boolean isFinal() {
    return isFinal;
  }

  /** Whether a right record matched. */
  public boolean matched() {
    return matched;
  }

  /** The left record merged with its match. */
  public String record() {
    return record;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    if (!(other instanceof JoinedRecord)) {
      return false;
    }
    JoinedRecord that = (JoinedRecord) other;
    return key.equals(that.key)
        && windowStart.equals(that.windowStart)
        && windowEnd.equals(that.windowEnd)
        && timing == that.timing
        && paneIndex == that.paneIndex
        && isFinal == that.isFinal
        && matched == that.matched
        && record.equals(that.record);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, windowStart, windowEnd, timing, paneIndex, isFinal, matched, record);
  }

  @Override
  public String toString() {
    return key
        + " ["
        + windowStart.getMillis()
        + ", "
        + windowEnd.getMillis()
        + ") "
        + timing
        + (isFinal ? " final " : " ")
        + record;
  }

  /** The coder of {@link JoinedRecord}. */
  public static final class Coder extends CustomCoder<JoinedRecord> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(JoinedRecord joined, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(joined.key, out);
      InstantCoder.of().encode(joined.windowStart, out);
      InstantCoder.of().encode(joined.windowEnd, out);
      StringUtf8Coder.of().encode(joined.timing.name(), out);
      VarLongCoder.of().encode(joined.paneIndex, out);
      BooleanCoder.of().encode(joined.isFinal, out);
      BooleanCoder.of().encode(joined.matched, out);
      StringUtf8Coder.of().encode(joined.record, out);
    }

    @Override
    public JoinedRecord decode(InputStream in) throws IOException {
      return new JoinedRecord(
          StringUtf8Coder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          Timing.valueOf(StringUtf8Coder.of().decode(in)),
          VarLongCoder.of().decode(in),
          BooleanCoder.of().decode(in),
          BooleanCoder.of().decode(in),
          StringUtf8Coder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
