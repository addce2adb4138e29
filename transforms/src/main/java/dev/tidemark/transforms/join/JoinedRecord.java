package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.WindowPane;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * One left record of one pane of a {@link LeftJoinPerWindow}, merged with its match: the join key,
 * the pane, whether a right record matched, and the merged record's text.
 */
@DefaultCoder(JoinedRecord.Coder.class)
public record JoinedRecord(String key, WindowPane pane, boolean matched, String record) {

  public JoinedRecord {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(pane, "pane");
    Objects.requireNonNull(record, "record");
  }

  @Override
  public String toString() {
    return key + " " + pane + " " + record;
  }

  /** The coder of {@link JoinedRecord}. */
  public static final class Coder extends AtomicCoder<JoinedRecord> {
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(JoinedRecord.class), INSTANCE);
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
