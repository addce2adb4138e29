package dev.tidemark.sql;

import dev.tidemark.transforms.windowing.CountAndSumFn;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code AVG} of a {@code BIGINT} or {@code INTEGER} column, exact: the sum divided by the count,
 * truncated toward zero, as SQL's integer division and Flink SQL give it; null when every value was
 * null. Beam SQL's own rounds the average to about ten significant digits (the average of
 * 12345678901 and 12345678903 comes out 12345678900), so tidemark averages whole numbers here.
 */
final class IntegerAverageFn extends CombineFn<Object, KV<Long, Long>, @Nullable Object> {

  private static final long serialVersionUID = 1L;

  private final CountAndSumFn<Object> countAndSum =
      CountAndSumFn.summing(value -> ((Number) value).longValue());
  private final boolean asInteger;

  private IntegerAverageFn(boolean asInteger) {
    this.asInteger = asInteger;
  }

  /** The average of {@code type}'s values, as a value of that type. */
  static IntegerAverageFn of(ColumnType type) {
    return new IntegerAverageFn(type == ColumnType.INTEGER);
  }

  @Override
  public KV<Long, Long> createAccumulator() {
    return countAndSum.createAccumulator();
  }

  @Override
  public KV<Long, Long> addInput(KV<Long, Long> accumulator, @Nullable Object value) {
    return value == null ? accumulator : countAndSum.addInput(accumulator, value);
  }

  @Override
  public KV<Long, Long> mergeAccumulators(Iterable<KV<Long, Long>> accumulators) {
    return countAndSum.mergeAccumulators(accumulators);
  }

  @Override
  public @Nullable Object extractOutput(KV<Long, Long> accumulator) {
    long count = accumulator.getKey();
    if (count == 0) {
      return null;
    }
    long average = accumulator.getValue() / count;
    return asInteger ? (Object) (int) average : (Object) average;
  }

  @Override
  public Coder<KV<Long, Long>> getAccumulatorCoder(CoderRegistry registry, Coder<Object> inputCoder)
      throws CannotProvideCoderException {
    return CountAndSumFn.CODER;
  }
}
