package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.WindowPane;
import java.io.Serializable;
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

  /** The key with the pane and its aggregate. */
  static <K, OutputT> PaneFormat<K, OutputT, KV<K, KV<WindowPane, OutputT>>> keyed() {
    return (key, pane, value) -> KV.of(key, KV.of(pane, value));
  }
}
