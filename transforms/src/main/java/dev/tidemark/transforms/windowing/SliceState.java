package dev.tidemark.transforms.windowing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * What {@link SlicedPanesFn} keeps for one key's slice ({@link WindowKind}): the aggregate of the
 * records in it, how many they are, and whether some came since the last idle flush. Mutable, and
 * changed only by the pane step.
 *
 * @param <AccumT> what the aggregate keeps
 */
final class SliceState<AccumT> {

  AccumT accumulated;
  long records;

  /** Whether records came into the slice since its windows' last EARLY panes. */
  boolean unreported;

  SliceState(AccumT accumulated, long records, boolean unreported) {
    this.accumulated = accumulated;
    this.records = records;
    this.unreported = unreported;
  }

  /** The coder of a slice's state, from the coder of its aggregate. */
  static final class SliceStateCoder<AccumT> extends StructuredCoder<SliceState<AccumT>> {
    private final Coder<AccumT> accumulatorCoder;

    SliceStateCoder(Coder<AccumT> accumulatorCoder) {
      this.accumulatorCoder = accumulatorCoder;
    }

    @Override
    public void encode(SliceState<AccumT> slice, OutputStream out) throws IOException {
      accumulatorCoder.encode(slice.accumulated, out);
      VarLongCoder.of().encode(slice.records, out);
      BooleanCoder.of().encode(slice.unreported, out);
    }

    @Override
    public SliceState<AccumT> decode(InputStream in) throws IOException {
      return new SliceState<>(
          accumulatorCoder.decode(in), VarLongCoder.of().decode(in), BooleanCoder.of().decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(accumulatorCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(this, "the aggregate must encode deterministically", accumulatorCoder);
    }
  }
}
