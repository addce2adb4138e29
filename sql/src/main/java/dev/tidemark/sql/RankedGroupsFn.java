package dev.tidemark.sql;

import dev.tidemark.transforms.model.ColumnValuesCoder;
import dev.tidemark.transforms.model.Event;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A window aggregate per group, for all the groups of one partition and window, as a window Top-N
 * over the aggregate ranks them ({@link WindowRanking}). Each event's first values are its group's
 * key parts, as key text, and the rest its aggregates' arguments; the accumulator is the
 * aggregate's accumulator per group. The output is, group after group, the group's key parts and
 * its aggregate values.
 */
final class RankedGroupsFn
    extends CombineFn<Event, Map<List<@Nullable String>, Object[]>, List<@Nullable Object>> {

  private static final long serialVersionUID = 1L;

  private final AggregateColumnsFn aggregate;
  private final int keyWidth;

  /**
   * The aggregate {@code aggregate} per group, whose key is an event's first {@code keyWidth}
   * values; {@code aggregate} reads its arguments after them.
   */
  RankedGroupsFn(AggregateColumnsFn aggregate, int keyWidth) {
    this.aggregate = aggregate;
    this.keyWidth = keyWidth;
  }

  @Override
  public Map<List<@Nullable String>, Object[]> createAccumulator() {
    return new HashMap<>();
  }

  @Override
  public Map<List<@Nullable String>, Object[]> addInput(
      Map<List<@Nullable String>, Object[]> groups, Event event) {
    List<@Nullable Object> values = event.columns();
    List<@Nullable String> key = new ArrayList<>(keyWidth);
    for (int k = 0; k < keyWidth; k++) {
      key.add(k < values.size() ? (String) values.get(k) : null);
    }
    Map<List<@Nullable String>, Object[]> mutable = mutable(groups);
    Object[] group = mutable.get(key);
    mutable.put(
        key, aggregate.addInput(group == null ? aggregate.createAccumulator() : group, event));
    return mutable;
  }

  @Override
  public Map<List<@Nullable String>, Object[]> mergeAccumulators(
      Iterable<Map<List<@Nullable String>, Object[]>> accumulators) {
    Map<List<@Nullable String>, Object[]> merged = new HashMap<>();
    for (Map<List<@Nullable String>, Object[]> groups : accumulators) {
      groups.forEach(
          (key, group) ->
              merged.merge(
                  key, group, (one, other) -> aggregate.mergeAccumulators(List.of(one, other))));
    }
    return merged;
  }

  @Override
  public List<@Nullable Object> extractOutput(Map<List<@Nullable String>, Object[]> groups) {
    List<@Nullable Object> values = new ArrayList<>();
    groups.forEach(
        (key, group) -> {
          values.addAll(key);
          values.addAll(aggregate.extractOutput(group));
        });
    return values;
  }

  private static Map<List<@Nullable String>, Object[]> mutable(
      Map<List<@Nullable String>, Object[]> groups) {
    return groups instanceof HashMap ? groups : new HashMap<>(groups);
  }

  @Override
  public Coder<Map<List<@Nullable String>, Object[]>> getAccumulatorCoder(
      CoderRegistry registry, Coder<Event> inputCoder) throws CannotProvideCoderException {
    return MapCoder.of(
        ListCoder.of(NullableCoder.of(StringUtf8Coder.of())),
        aggregate.getAccumulatorCoder(registry, inputCoder));
  }

  @Override
  public Coder<List<@Nullable Object>> getDefaultOutputCoder(
      CoderRegistry registry, Coder<Event> inputCoder) {
    return ColumnValuesCoder.of();
  }
}
