package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * One pane of one key's count and sum in one window. Panes accumulate: a consumer keeps, per key
 * and window, the final pane ({@link WindowPane#isFinal()}) once it has come, and until then the
 * one with the highest {@link WindowPane#index()}.
 *
 * <p>Why not simply the highest index: after a restore, a runner replays the records since the last
 * checkpoint, but EARLY panes fire on processing time, so the replay may fire fewer of them than
 * the failed attempt did. A pane that attempt wrote can then carry a higher index, and a smaller
 * count, than the final pane of the attempt that completes the window.
 */
@DefaultCoder(WindowResult.Coder.class)
public record WindowResult(EventKey key, WindowPane pane, long count, long sum) {

  public WindowResult {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(pane, "pane");
  }

  /** The pane of {@code key} whose count and sum are {@code countAndSum}'s key and value. */
  public static WindowResult of(EventKey key, WindowPane pane, KV<Long, Long> countAndSum) {
    return new WindowResult(key, pane, countAndSum.getKey(), countAndSum.getValue());
  }

  @Override
  public String toString() {
    return key + " " + pane + " count=" + count + " sum=" + sum;
  }

  /** The coder of {@link WindowResult}. */
  public static final class Coder extends AtomicCoder<WindowResult> {
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(WindowResult.class), INSTANCE);
    }

    @Override
    public void encode(WindowResult result, OutputStream out) throws IOException {
      EventKey.Coder.of().encode(result.key, out);
      WindowPane.Coder.of().encode(result.pane, out);
      VarLongCoder.of().encode(result.count, out);
      VarLongCoder.of().encode(result.sum, out);
    }

    @Override
    public WindowResult decode(InputStream in) throws IOException {
      return new WindowResult(
          EventKey.Coder.of().decode(in),
          WindowPane.Coder.of().decode(in),
          VarLongCoder.of().decode(in),
          VarLongCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
