package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.Event;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.values.KV;

/** Counts events and sums their values: (count, sum). */
final class CountAndSumFn extends CombineFn<KV<Integer, Event>, KV<Long, Long>, KV<Long, Long>> {

  static final Coder<KV<Long, Long>> CODER = KvCoder.of(VarLongCoder.of(), VarLongCoder.of());

  @Override
  public KV<Long, Long> createAccumulator() {
    return KV.of(0L, 0L);
  }

  @Override
  public KV<Long, Long> addInput(KV<Long, Long> countAndSum, KV<Integer, Event> record) {
    return KV.of(countAndSum.getKey() + 1, countAndSum.getValue() + record.getValue().value());
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
      CoderRegistry registry, Coder<KV<Integer, Event>> inputCoder)
      throws CannotProvideCoderException {
    return CODER;
  }
}
