package dev.tidemark.sql;

import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code AVG} of a {@code DOUBLE} or {@code FLOAT} column as Flink SQL gives it: the sum of the
 * values as a double divided by their count, with a double's precision; null when every value was
 * null. Beam SQL's own goes through a {@code BigDecimal} rounded to ten significant digits (the
 * average of 249.9142727272727's values came out 249.9142727), so tidemark averages floating-point
 * values here.
 */
final class FloatingAverageFn extends CombineFn<Object, KV<Long, Double>, @Nullable Object> {

  private static final long serialVersionUID = 1L;

  private static final Coder<KV<Long, Double>> ACCUMULATOR_CODER =
      KvCoder.of(VarLongCoder.of(), DoubleCoder.of());

  private final boolean asFloat;

  private FloatingAverageFn(boolean asFloat) {
    this.asFloat = asFloat;
  }

  /** The average of {@code type}'s values, as a value of that type. */
  static FloatingAverageFn of(ColumnType type) {
    return new FloatingAverageFn(type == ColumnType.FLOAT);
  }

  @Override
  public KV<Long, Double> createAccumulator() {
    return KV.of(0L, 0.0);
  }

  @Override
  public KV<Long, Double> addInput(KV<Long, Double> accumulator, @Nullable Object value) {
    return value == null
        ? accumulator
        : KV.of(accumulator.getKey() + 1, accumulator.getValue() + ((Number) value).doubleValue());
  }

  @Override
  public KV<Long, Double> mergeAccumulators(Iterable<KV<Long, Double>> accumulators) {
    long count = 0;
    double sum = 0;
    for (KV<Long, Double> accumulator : accumulators) {
      count += accumulator.getKey();
      sum += accumulator.getValue();
    }
    return KV.of(count, sum);
  }

  @Override
  public @Nullable Object extractOutput(KV<Long, Double> accumulator) {
    long count = accumulator.getKey();
    if (count == 0) {
      return null;
    }
    double average = accumulator.getValue() / count;
    return asFloat ? (Object) (float) average : (Object) average;
  }

  @Override
  public Coder<KV<Long, Double>> getAccumulatorCoder(
      CoderRegistry registry, Coder<Object> inputCoder) {
    return ACCUMULATOR_CODER;
  }
}
