package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One pane of one key's aggregate in one window: the count and sum so far (panes accumulate) and
 * the {@link WindowPane}. A consumer keeps the latest pane per (key, window); the final pane holds
 * everything that was not captured as late. Encoded by {@link WindowResult.Coder}.
 */
public final class WindowResult {

  private final String key;
  private final WindowPane pane;
  private final long count;
  private final long sum;

  public WindowResult(String key, WindowPane pane, long count, long sum) {
    this.key = Objects.requireNonNull(key, "key");
    this.pane = Objects.requireNonNull(pane, "pane");
    this.count = count;
    this.sum = sum;
  }

  public String key() {
    return key;
  }

  public WindowPane pane() {
    return pane;
  }

  public long count() {
    return count;
  }

  public long sum() {
    return sum;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    if (!(other instanceof WindowResult)) {
      return false;
    }
    WindowResult that = (WindowResult) other;
    return key.equals(that.key) && pane.equals(that.pane) && count == that.count && sum == that.sum;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, pane, count, sum);
  }

  @Override
  public String toString() {
    return key + " " + pane + " count=" + count + " sum=" + sum;
  }

  /** The coder of {@link WindowResult}. */
  public static final class Coder extends CustomCoder<WindowResult> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(WindowResult result, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(result.key, out);
      WindowPane.Coder.of().encode(result.pane, out);
      VarLongCoder.of().encode(result.count, out);
      VarLongCoder.of().encode(result.sum, out);
    }

    @Override
    public WindowResult decode(InputStream in) throws IOException {
      return new WindowResult(
          StringUtf8Coder.of().decode(in),
          WindowPane.Coder.of().decode(in),
          VarLongCoder.of().decode(in),
          VarLongCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
