package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.windowing.KeyedPane;
import java.io.Serializable;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.values.KV;

/**
 * What the replay's pane step ({@link ReplayPanesFn}) emits for one pane of a key: made in that
 * step, so that a composite whose output is its own type ({@link CountReplayPerWindow}'s results)
 * needs no step after it, which on Flink every pane would pass through.
 *
 * @param <K> the key
 * @param <OutputT> what the aggregate of a pane is
 * @param <PaneT> what is emitted for a pane
 */
@FunctionalInterface
interface PaneFormat<K, OutputT, PaneT> extends Serializable {

  PaneT of(K key, WindowPane pane, OutputT value);

  /**
   * A user's typed pane ({@link KeyedPane}), counted in {@code tidemark:resultsOut} as it is handed
   * on, as the live {@code AggregatePerWindow.intoResult} counts it.
   */
  static <K, OutputT> PaneFormat<K, OutputT, KeyedPane<K, OutputT>> countedKeyedPanes() {
    Counter resultsOut = TidemarkMetrics.resultsOut();
    return (key, pane, value) -> {
      resultsOut.inc();
      return new KeyedPane<>(key, pane, value);
    };
  }

  /** The key with the pane and its aggregate. */
  static <K, OutputT> PaneFormat<K, OutputT, KV<K, KV<WindowPane, OutputT>>> keyed() {
    return (key, pane, value) -> KV.of(key, KV.of(pane, value));
  }
}
