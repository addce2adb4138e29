package dev.tidemark.transforms.windowing;

import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;

/**
 * Counts inputs and sums a value of each: (count, sum).
 *
 * <p>The accumulator is a new {@link KV} at every step, never changed in place, as Beam would
 * allow: a runner's state backend that keeps it by reference (Flink's heap backend under Beam's
 * {@code --fasterCopy}) then cannot see a checkpoint's copy change after the checkpoint's barrier.
 */
public final class CountAndSumFn<InputT> extends CombineFn<InputT, KV<Long, Long>, KV<Long, Long>> {

  /** The accumulator's and the output's coder. */
  public static final Coder<KV<Long, Long>> CODER =
      KvCoder.of(VarLongCoder.of(), VarLongCoder.of());

  private final SerializableFunction<InputT, Long> valueOf;

  private CountAndSumFn(SerializableFunction<InputT, Long> valueOf) {
    this.valueOf = valueOf;
  }

  /** Counts inputs and sums {@code valueOf} of each. */
  public static <InputT> CountAndSumFn<InputT> summing(SerializableFunction<InputT, Long> valueOf) {
    return new CountAndSumFn<>(valueOf);
  }

  @Override
  public KV<Long, Long> createAccumulator() {
    return KV.of(0L, 0L);
  }

  @Override
  public KV<Long, Long> addInput(KV<Long, Long> countAndSum, InputT input) {
    return KV.of(countAndSum.getKey() + 1, countAndSum.getValue() + valueOf.apply(input));
  }

  @Override
  public KV<Long, Long> mergeAccumulators(Iterable<KV<Long, Long>> accumulators) {
    long count = 0;
    long sum = 0;
    for (KV<Long, Long> countAndSum : accumulators) {
      count += countAndSum.getKey();
      sum += countAndSum.getValue();
    }
    return KV.of(count, sum);
  }

  @Override
  public KV<Long, Long> extractOutput(KV<Long, Long> countAndSum) {
    return countAndSum;
  }

  @Override
  public Coder<KV<Long, Long>> getAccumulatorCoder(
      CoderRegistry registry, Coder<InputT> inputCoder) {
    return CODER;
  }

  @Override
  public Coder<KV<Long, Long>> getDefaultOutputCoder(
      CoderRegistry registry, Coder<InputT> inputCoder) {
    return CODER;
  }
}
