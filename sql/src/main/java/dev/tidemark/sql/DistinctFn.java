package dev.tidemark.sql;

import java.util.HashSet;
import java.util.Set;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.SetCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An aggregate over the distinct values of its argument, {@code COUNT(DISTINCT x)} or {@code
 * SUM(DISTINCT x)}: the set of the values seen, {@code NULL} skipped as SQL skips it, then the
 * aggregate over the set when a pane is written. The set grows with the distinct values of a key's
 * window, as it must: a value seen once may come again.
 */
final class DistinctFn extends CombineFn<@Nullable Object, Set<Object>, @Nullable Object> {

  private static final long serialVersionUID = 1L;

  private final CombineFn<Object, Object, Object> aggregate;

  @SuppressWarnings("unchecked")
  DistinctFn(CombineFn<Object, ?, Object> aggregate) {
    this.aggregate = (CombineFn<Object, Object, Object>) aggregate;
  }

  @Override
  public Set<Object> createAccumulator() {
    return new HashSet<>();
  }

  @Override
  public Set<Object> addInput(Set<Object> seen, @Nullable Object value) {
    if (value != null) {
      seen.add(value);
    }
    return seen;
  }

  @Override
  public Set<Object> mergeAccumulators(Iterable<Set<Object>> sets) {
    Set<Object> all = new HashSet<>();
    for (Set<Object> set : sets) {
      all.addAll(set);
    }
    return all;
  }

  @Override
  public @Nullable Object extractOutput(Set<Object> seen) {
    Object accumulator = aggregate.createAccumulator();
    for (Object value : seen) {
      accumulator = aggregate.addInput(accumulator, value);
    }
    return aggregate.extractOutput(accumulator);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Coder<Set<Object>> getAccumulatorCoder(
      CoderRegistry registry, Coder<@Nullable Object> inputCoder) {
    return SetCoder.of((Coder<Object>) (Coder<?>) inputCoder);
  }
}
