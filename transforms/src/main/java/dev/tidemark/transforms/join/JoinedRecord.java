package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.WindowPane;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One left record of one pane of a {@link LeftJoinPerWindow}, merged with its match (or with none):
 * the join key, the {@link WindowPane}, whether a right record matched, and the merged text.
 * Encoded by {@link JoinedRecord.Coder}.
 */
public final class JoinedRecord {

  private final String key;
  private final WindowPane pane;
  private final boolean matched;
  private final String record;

  public JoinedRecord(String key, WindowPane pane, boolean matched, String record) {
    this.key = Objects.requireNonNull(key, "key");
    this.pane = Objects.requireNonNull(pane, "pane");
    this.matched = matched;
    this.record = Objects.requireNonNull(record, "record");
  }

  public String key() {
    return key;
  }

  public WindowPane pane() {
    return pane;
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
        && pane.equals(that.pane)
        && matched == that.matched
        && record.equals(that.record);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, pane, matched, record);
  }

  @Override
  public String toString() {
    return key + " " + pane + " " + record;
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
      WindowPane.Coder.of().encode(joined.pane, out);
      BooleanCoder.of().encode(joined.matched, out);
      StringUtf8Coder.of().encode(joined.record, out);
    }

    @Override
    public JoinedRecord decode(InputStream in) throws IOException {
      return new JoinedRecord(
          StringUtf8Coder.of().decode(in),
          WindowPane.Coder.of().decode(in),
          BooleanCoder.of().decode(in),
          StringUtf8Coder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
