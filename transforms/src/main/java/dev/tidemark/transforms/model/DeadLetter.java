package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.checkerframework.checker.nullness.qual.Nullable;

/** A record that could not be parsed: its raw text and why. Encoded by {@link DeadLetter.Coder}. */
public final class DeadLetter {

  private final String raw;
  private final String reason;

  public DeadLetter(String raw, String reason) {
    this.raw = Objects.requireNonNull(raw, "raw");
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public String raw() {
    return raw;
  }

  public String reason() {
    return reason;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof DeadLetter
        && raw.equals(((DeadLetter) other).raw)
        && reason.equals(((DeadLetter) other).reason);
  }

  @Override
  public int hashCode() {
    return Objects.hash(raw, reason);
  }

  @Override
  public String toString() {
    return "DeadLetter{'" + raw + "': " + reason + "}";
  }

  /** The coder of {@link DeadLetter}. */
  public static final class Coder extends CustomCoder<DeadLetter> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(DeadLetter letter, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(letter.raw, out);
      StringUtf8Coder.of().encode(letter.reason, out);
    }

    @Override
    public DeadLetter decode(InputStream in) throws IOException {
      return new DeadLetter(StringUtf8Coder.of().decode(in), StringUtf8Coder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
