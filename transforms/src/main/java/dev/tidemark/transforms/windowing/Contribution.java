package dev.tidemark.transforms.windowing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.ByteCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What reaches the live pane step for one key and window: one value, which the step judges on its
 * own, or a partial aggregate of values that were certain to be on time when a step before the
 * shuffle aggregated them ({@link GatherOnTimeFn}).
 *
 * @param <V> a value
 * @param <AccumT> the aggregate's accumulator
 */
public final class Contribution<V, AccumT> {

  private final @Nullable V value;
  private final @Nullable AccumT partial;
  private final long records;

  private Contribution(@Nullable V value, @Nullable AccumT partial, long records) {
    this.value = value;
    this.partial = partial;
    this.records = records;
  }

  /** One value. */
  public static <V, AccumT> Contribution<V, AccumT> of(V value) {
    return new Contribution<>(value, null, 1);
  }

  /** {@code records} values, aggregated into {@code partial}, all certain to be on time. */
  public static <V, AccumT> Contribution<V, AccumT> onTime(AccumT partial, long records) {
    return new Contribution<>(null, partial, records);
  }

  public boolean isPartial() {
    return partial != null;
  }

  /** The one value; only for a contribution that is not partial. */
  public V value() {
    if (value == null) {
      throw new IllegalStateException("a partial aggregate has no single value");
    }
    return value;
  }

  /** The partial aggregate; only for a partial contribution. */
  public AccumT partial() {
    if (partial == null) {
      throw new IllegalStateException("a single value has no partial aggregate");
    }
    return partial;
  }

  /** How many values it holds. */
  public long records() {
    return records;
  }

  /** The coder of a contribution: a tag byte, then the value, or the aggregate and its count. */
  public static final class ContributionCoder<V, AccumT>
      extends StructuredCoder<Contribution<V, AccumT>> {
    private static final byte VALUE = 0;
    private static final byte PARTIAL = 1;

    private final Coder<V> valueCoder;
    private final Coder<AccumT> accumulatorCoder;

    private ContributionCoder(Coder<V> valueCoder, Coder<AccumT> accumulatorCoder) {
      this.valueCoder = valueCoder;
      this.accumulatorCoder = accumulatorCoder;
    }

    public static <V, AccumT> ContributionCoder<V, AccumT> of(
        Coder<V> valueCoder, Coder<AccumT> accumulatorCoder) {
      return new ContributionCoder<>(valueCoder, accumulatorCoder);
    }

    @Override
    public void encode(Contribution<V, AccumT> contribution, OutputStream out) throws IOException {
      if (contribution.isPartial()) {
        ByteCoder.of().encode(PARTIAL, out);
        accumulatorCoder.encode(contribution.partial(), out);
        VarLongCoder.of().encode(contribution.records(), out);
      } else {
        ByteCoder.of().encode(VALUE, out);
        valueCoder.encode(contribution.value(), out);
      }
    }

    @Override
    public Contribution<V, AccumT> decode(InputStream in) throws IOException {
      if (ByteCoder.of().decode(in) == PARTIAL) {
        AccumT partial = accumulatorCoder.decode(in);
        return Contribution.onTime(partial, VarLongCoder.of().decode(in));
      }
      return Contribution.of(valueCoder.decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(valueCoder, accumulatorCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(this, "a value must encode deterministically", valueCoder);
      verifyDeterministic(this, "an aggregate must encode deterministically", accumulatorCoder);
    }
  }
}
