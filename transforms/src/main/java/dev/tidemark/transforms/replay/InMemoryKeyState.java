package dev.tidemark.transforms.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerMap;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * One key's state, held in memory, for rules written against Beam's state and timers ({@link
 * dev.tidemark.transforms.windowing.KeySessions}) that {@link ExplainReplay} applies without a
 * pipeline: a map state, and timer maps whose timers the walk fires itself. Beam offers no state
 * outside a runner, so this small one is written here; it keeps only what the rules use.
 *
 * @param <K> the map state's keys
 * @param <V> its values
 */
final class InMemoryKeyState<K, V> {

  private final TreeMap<K, V> map = new TreeMap<>();

  /** The map, as the rules read and write it. */
  MapState<K, V> map() {
    return new MapState<>() {
      @Override
      public void put(K key, V value) {
        map.put(key, value);
      }

      @Override
      public ReadableState<V> computeIfAbsent(
          K key, Function<? super K, ? extends V> mappingFunction) {
        return value(map.putIfAbsent(key, mappingFunction.apply(key)));
      }

      @Override
      public void remove(K key) {
        map.remove(key);
      }

      @Override
      public ReadableState<V> get(K key) {
        return value(map.get(key));
      }

      @Override
      public ReadableState<V> getOrDefault(K key, @Nullable V defaultValue) {
        return value(map.getOrDefault(key, defaultValue));
      }

      @Override
      public ReadableState<Iterable<K>> keys() {
        return value(List.copyOf(map.keySet()));
      }

      @Override
      public ReadableState<Iterable<V>> values() {
        return value(List.copyOf(map.values()));
      }

      @Override
      public ReadableState<Iterable<Map.Entry<K, V>>> entries() {
        return value(new ArrayList<>(Map.copyOf(map).entrySet()));
      }

      @Override
      public ReadableState<Boolean> isEmpty() {
        return value(map.isEmpty());
      }

      @Override
      public void clear() {
        map.clear();
      }
    };
  }

  /** The map's current contents, by key. */
  Map<K, V> contents() {
    return map;
  }

  /**
   * A timer map whose {@code set} is passed to {@code onSet} and whose timers' {@code clear} to
   * {@code onClear}, with the timer's tag.
   */
  static TimerMap timers(
      BiConsumer<String, Instant> onSet, java.util.function.Consumer<String> onClear) {
    return new TimerMap() {
      @Override
      public void set(String tag, Instant at) {
        onSet.accept(tag, at);
      }

      @Override
      public Timer get(String tag) {
        return new ClearOnlyTimer(() -> onClear.accept(tag));
      }
    };
  }

  private static <T> ReadableState<T> value(@Nullable T value) {
    return new ReadableState<>() {
      @Override
      public T read() {
        return value;
      }

      @Override
      public ReadableState<T> readLater() {
        return this;
      }
    };
  }

  /** A timer the rules only clear; they set timers through the map. */
  private record ClearOnlyTimer(Runnable onClear) implements Timer {
    @Override
    public void set(Instant absoluteTime) {
      throw new UnsupportedOperationException("the rules set timers through the timer map");
    }

    @Override
    public void setRelative() {
      throw new UnsupportedOperationException("the rules set timers through the timer map");
    }

    @Override
    public void clear() {
      onClear.run();
    }

    @Override
    public Timer offset(Duration offset) {
      throw new UnsupportedOperationException("the rules set timers through the timer map");
    }

    @Override
    public Timer align(Duration period) {
      throw new UnsupportedOperationException("the rules set timers through the timer map");
    }

    @Override
    public Timer withOutputTimestamp(Instant outputTime) {
      throw new UnsupportedOperationException("the rules set timers through the timer map");
    }

    @Override
    public Timer withNoOutputTimestamp() {
      throw new UnsupportedOperationException("the rules set timers through the timer map");
    }

    @Override
    public Instant getCurrentRelativeTime() {
      throw new UnsupportedOperationException("the walk has no clock of its own");
    }
  }
}
