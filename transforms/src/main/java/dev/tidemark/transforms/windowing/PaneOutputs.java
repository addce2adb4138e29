package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.WindowPane;
import java.io.Serializable;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;

/**
 * What the pane step of {@link AggregatePerWindow} emits for a pane and for an expired value, under
 * which tags and with which coders: {@link AggregatePerWindow}'s public {@code KV}s ({@link
 * Keyed}), or a type of this package's own, made in the pane step itself ({@link CountPerWindow}'s
 * results and late records). On Flink every step is an operator that each pane passes through, so
 * making a caller's type in a step after the pane step would cost a step for nothing.
 *
 * @param <K> the key
 * @param <V> the value
 * @param <OutputT> what the aggregate of a pane is
 * @param <PaneT> what is emitted for a pane
 * @param <ExpiredT> what is emitted for an expired value
 */
abstract class PaneOutputs<K, V, OutputT, PaneT, ExpiredT> implements Serializable {

  private static final long serialVersionUID = 1L;

  private final TupleTag<PaneT> panes;
  private final TupleTag<ExpiredT> expired;

  PaneOutputs(TupleTag<PaneT> panes, TupleTag<ExpiredT> expired) {
    this.panes = panes;
    this.expired = expired;
  }

  final TupleTag<PaneT> panes() {
    return panes;
  }

  final TupleTag<ExpiredT> expired() {
    return expired;
  }

  /** What is emitted for {@code key}'s {@code pane}, whose aggregate is {@code value}. */
  abstract PaneT pane(K key, WindowPane pane, OutputT value);

  /** What is emitted for {@code key}'s {@code value}, whose window had expired. */
  abstract ExpiredT expired(K key, Expired<V> value);

  abstract Coder<PaneT> paneCoder(Coder<K> keyCoder, Coder<OutputT> outputCoder);

  abstract Coder<ExpiredT> expiredCoder(Coder<K> keyCoder, Coder<V> valueCoder);

  /** {@link AggregatePerWindow}'s own outputs: the key with the pane, or with the expired value. */
  static final class Keyed<K, V, OutputT>
      extends PaneOutputs<K, V, OutputT, KV<K, KV<WindowPane, OutputT>>, KV<K, Expired<V>>> {

    private static final long serialVersionUID = 1L;

    Keyed(TupleTag<KV<K, KV<WindowPane, OutputT>>> panes, TupleTag<KV<K, Expired<V>>> expired) {
      super(panes, expired);
    }

    @Override
    KV<K, KV<WindowPane, OutputT>> pane(K key, WindowPane pane, OutputT value) {
      return KV.of(key, KV.of(pane, value));
    }

    @Override
    KV<K, Expired<V>> expired(K key, Expired<V> value) {
      return KV.of(key, value);
    }

    @Override
    Coder<KV<K, KV<WindowPane, OutputT>>> paneCoder(Coder<K> keyCoder, Coder<OutputT> outputCoder) {
      return KvCoder.of(keyCoder, KvCoder.of(WindowPane.Coder.of(), outputCoder));
    }

    @Override
    Coder<KV<K, Expired<V>>> expiredCoder(Coder<K> keyCoder, Coder<V> valueCoder) {
      return KvCoder.of(keyCoder, Expired.ExpiredCoder.of(valueCoder));
    }
  }

  /**
   * The outputs of {@link AggregatePerWindow#intoResult}: typed panes, and typed expired values.
   */
  static final class Typed<K, V, OutputT>
      extends PaneOutputs<K, V, OutputT, KeyedPane<K, OutputT>, KeyedExpired<K, V>> {

    private static final long serialVersionUID = 1L;

    /** Each pane handed on to the user's code: {@code tidemark:resultsOut}. */
    private final Counter resultsOut = TidemarkMetrics.resultsOut();

    Typed(TupleTag<KeyedPane<K, OutputT>> panes, TupleTag<KeyedExpired<K, V>> expired) {
      super(panes, expired);
    }

    @Override
    KeyedPane<K, OutputT> pane(K key, WindowPane pane, OutputT value) {
      resultsOut.inc();
      return new KeyedPane<>(key, pane, value);
    }

    @Override
    KeyedExpired<K, V> expired(K key, Expired<V> value) {
      return new KeyedExpired<>(key, value);
    }

    @Override
    Coder<KeyedPane<K, OutputT>> paneCoder(Coder<K> keyCoder, Coder<OutputT> outputCoder) {
      return KeyedPane.KeyedPaneCoder.of(keyCoder, outputCoder);
    }

    @Override
    Coder<KeyedExpired<K, V>> expiredCoder(Coder<K> keyCoder, Coder<V> valueCoder) {
      return KeyedExpired.KeyedExpiredCoder.of(keyCoder, valueCoder);
    }
  }
}
