package dev.tidemark.transforms.replay;

import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.SerializableFunction;

/**
 * A caller's {@code CombineFn} of values over the replay's records, each of which holds one value:
 * written here because Beam has no {@code CombineFn} that maps its input first.
 *
 * @param <R> a record as the replay's steps carry it
 * @param <V> the value the caller's aggregate takes
 */
final class CombineValuesFn<R, V, AccumT, OutputT> extends CombineFn<R, AccumT, OutputT> {

  private static final long serialVersionUID = 1L;

  private final CombineFn<V, AccumT, OutputT> aggregate;
  private final SerializableFunction<R, V> valueOf;
  private final Coder<V> valueCoder;

  @SuppressWarnings("unchecked")
  CombineValuesFn(
      CombineFn<V, ?, OutputT> aggregate, SerializableFunction<R, V> valueOf, Coder<V> valueCoder) {
    this.aggregate = (CombineFn<V, AccumT, OutputT>) aggregate;
    this.valueOf = valueOf;
    this.valueCoder = valueCoder;
  }

  @Override
  public AccumT createAccumulator() {
    return aggregate.createAccumulator();
  }

  @Override
  public AccumT addInput(AccumT accumulator, R record) {
    return aggregate.addInput(accumulator, valueOf.apply(record));
  }

  @Override
  public AccumT mergeAccumulators(Iterable<AccumT> accumulators) {
    return aggregate.mergeAccumulators(accumulators);
  }

  @Override
  public OutputT extractOutput(AccumT accumulator) {
    return aggregate.extractOutput(accumulator);
  }

  @Override
  public Coder<AccumT> getAccumulatorCoder(CoderRegistry registry, Coder<R> inputCoder)
      throws CannotProvideCoderException {
    return aggregate.getAccumulatorCoder(registry, valueCoder);
  }

  /** The coder of the caller's aggregate's output, as {@code Combine} would find it. */
  Coder<OutputT> outputCoder(CoderRegistry registry) throws CannotProvideCoderException {
    return aggregate.getDefaultOutputCoder(registry, valueCoder);
  }
}
