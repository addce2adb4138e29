package dev.tidemark.sql;

import java.util.List;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code FIRST_VALUE(x)} and {@code LAST_VALUE(x)} as Flink SQL defines them: the first, or last,
 * value of {@code x} that is not {@code NULL}, in the order the records arrived. Each value comes
 * with its record's place in that order ({@link AggregateColumnsFn}: its line in a recording, its
 * offset in a Kafka partition), so the answer is the same however a runner splits and merges the
 * window's records.
 */
final class OrderedValueFn
    extends CombineFn<
        KV<Long, List<@Nullable Object>>, KV<Long, @Nullable Object>, @Nullable Object> {

  private static final long serialVersionUID = 1L;

  private final boolean last;

  private OrderedValueFn(boolean last) {
    this.last = last;
  }

  /** {@code FIRST_VALUE}. */
  static OrderedValueFn first() {
    return new OrderedValueFn(false);
  }

  /** {@code LAST_VALUE}. */
  static OrderedValueFn last() {
    return new OrderedValueFn(true);
  }

  @Override
  public KV<Long, @Nullable Object> createAccumulator() {
    return KV.of(last ? Long.MIN_VALUE : Long.MAX_VALUE, null);
  }

  @Override
  public KV<Long, @Nullable Object> addInput(
      KV<Long, @Nullable Object> chosen, KV<Long, List<@Nullable Object>> input) {
    Object value = input.getValue().get(0);
    return value == null ? chosen : earlierOrLater(chosen, KV.of(input.getKey(), value));
  }

  @Override
  public KV<Long, @Nullable Object> mergeAccumulators(
      Iterable<KV<Long, @Nullable Object>> accumulators) {
    KV<Long, @Nullable Object> chosen = createAccumulator();
    for (KV<Long, @Nullable Object> accumulator : accumulators) {
      if (accumulator.getValue() != null) {
        chosen = earlierOrLater(chosen, accumulator);
      }
    }
    return chosen;
  }

  private KV<Long, @Nullable Object> earlierOrLater(
      KV<Long, @Nullable Object> chosen, KV<Long, @Nullable Object> candidate) {
    if (chosen.getValue() == null) {
      return candidate;
    }
    boolean replaces =
        last ? candidate.getKey() > chosen.getKey() : candidate.getKey() < chosen.getKey();
    return replaces ? candidate : chosen;
  }

  @Override
  public @Nullable Object extractOutput(KV<Long, @Nullable Object> chosen) {
    return chosen.getValue();
  }

  @Override
  @SuppressWarnings("unchecked")
  public Coder<KV<Long, @Nullable Object>> getAccumulatorCoder(
      CoderRegistry registry, Coder<KV<Long, List<@Nullable Object>>> inputCoder)
      throws CannotProvideCoderException {
    KvCoder<Long, List<@Nullable Object>> input =
        (KvCoder<Long, List<@Nullable Object>>) inputCoder;
    Coder<@Nullable Object> value =
        ((ListCoder<@Nullable Object>) input.getValueCoder()).getElemCoder();
    return KvCoder.of(VarLongCoder.of(), value);
  }
}
