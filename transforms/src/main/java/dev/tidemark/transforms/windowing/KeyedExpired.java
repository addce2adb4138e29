package dev.tidemark.transforms.windowing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * One key's value that arrived after its window had expired, beside {@link KeyedPane}: what {@link
 * PerWindowResult#expired()} gives, live and replayed. The key, and the {@link Expired} value with
 * its event time, its window and the watermark that judged it.
 *
 * @param <K> the key
 * @param <V> the value
 */
public record KeyedExpired<K, V>(K key, Expired<V> expired) {

  public KeyedExpired {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(expired, "expired");
  }

  /** The value that came too late. */
  public V value() {
    return expired.value();
  }

  /** The window it belonged to, which had expired. */
  public IntervalWindow window() {
    return expired.window();
  }

  /** The watermark that judged it. */
  public Instant watermark() {
    return expired.watermark();
  }

  /** How far behind that watermark its event time was. */
  public Duration lateBy() {
    return expired.lateBy();
  }

  @Override
  public String toString() {
    return key + " " + expired;
  }

  /** The coder of {@link KeyedExpired}, from the coders of its key and its value. */
  public static final class KeyedExpiredCoder<K, V> extends StructuredCoder<KeyedExpired<K, V>> {
    private final Coder<K> keyCoder;
    private final Expired.ExpiredCoder<V> expiredCoder;

    private KeyedExpiredCoder(Coder<K> keyCoder, Coder<V> valueCoder) {
      this.keyCoder = keyCoder;
      this.expiredCoder = Expired.ExpiredCoder.of(valueCoder);
    }

    public static <K, V> KeyedExpiredCoder<K, V> of(Coder<K> keyCoder, Coder<V> valueCoder) {
      return new KeyedExpiredCoder<>(keyCoder, valueCoder);
    }

    @Override
    public void encode(KeyedExpired<K, V> late, OutputStream out) throws IOException {
      keyCoder.encode(late.key(), out);
      expiredCoder.encode(late.expired(), out);
    }

    @Override
    public KeyedExpired<K, V> decode(InputStream in) throws IOException {
      return new KeyedExpired<>(keyCoder.decode(in), expiredCoder.decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(keyCoder, expiredCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(
          this, "the key and the value must encode deterministically", keyCoder, expiredCoder);
    }
  }
}
