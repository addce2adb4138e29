package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.WindowPane;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StructuredCoder;

/**
 * One pane of one key's aggregate in one window: the key, which window and pane ({@link
 * WindowPane}: its bounds, timing, index, and whether it is the window's final pane), and the
 * aggregate of the window so far. Panes accumulate: the final one holds the window's whole value.
 *
 * @param <K> the key
 * @param <OutputT> the aggregate
 */
public record KeyedPane<K, OutputT>(K key, WindowPane pane, OutputT value) {

  public KeyedPane {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(pane, "pane");
  }

  /** Whether this is its window's final pane, which holds the window's whole value. */
  public boolean isFinal() {
    return pane.isFinal();
  }

  @Override
  public String toString() {
    return key + " " + pane + " " + value;
  }

  /** The coder of {@link KeyedPane}, from the coders of its key and its aggregate. */
  public static final class KeyedPaneCoder<K, OutputT>
      extends StructuredCoder<KeyedPane<K, OutputT>> {
    private final Coder<K> keyCoder;
    private final Coder<OutputT> valueCoder;

    private KeyedPaneCoder(Coder<K> keyCoder, Coder<OutputT> valueCoder) {
      this.keyCoder = keyCoder;
      this.valueCoder = valueCoder;
    }

    public static <K, OutputT> KeyedPaneCoder<K, OutputT> of(
        Coder<K> keyCoder, Coder<OutputT> valueCoder) {
      return new KeyedPaneCoder<>(keyCoder, valueCoder);
    }

    @Override
    public void encode(KeyedPane<K, OutputT> pane, OutputStream out) throws IOException {
      keyCoder.encode(pane.key(), out);
      WindowPane.Coder.of().encode(pane.pane(), out);
      valueCoder.encode(pane.value(), out);
    }

    @Override
    public KeyedPane<K, OutputT> decode(InputStream in) throws IOException {
      return new KeyedPane<>(
          keyCoder.decode(in), WindowPane.Coder.of().decode(in), valueCoder.decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(keyCoder, valueCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(
          this, "the key and the aggregate must encode deterministically", keyCoder, valueCoder);
    }
  }
}
