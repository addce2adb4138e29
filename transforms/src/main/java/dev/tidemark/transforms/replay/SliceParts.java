package dev.tidemark.transforms.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * What {@link ReplaySlicesFn} keeps for one key's slice: the aggregates of its on-time records, one
 * per window they are on time from ({@link SliceRecords#onTimeFrom}), and whether some came since
 * the key's last idle flush. A window of the slice reads the parts on time from its end or before.
 * In a replay read in order every record is on time for every window of its slice, and a slice has
 * one part. Mutable, and changed only by the pane step.
 *
 * @param <AccumT> what the aggregate keeps
 */
final class SliceParts<AccumT> {

  /** The aggregate of the slice's records that are on time for windows ending from a point on. */
  static final class Part<AccumT> {
    final Instant onTimeFrom;
    AccumT accumulated;
    long records;

    Part(Instant onTimeFrom, AccumT accumulated, long records) {
      this.onTimeFrom = onTimeFrom;
      this.accumulated = accumulated;
      this.records = records;
    }
  }

  final List<Part<AccumT>> parts;
  boolean unreported;

  SliceParts() {
    this(new ArrayList<>(), false);
  }

  private SliceParts(List<Part<AccumT>> parts, boolean unreported) {
    this.parts = parts;
    this.unreported = unreported;
  }

  /** The part on time from {@code onTimeFrom}, or null if the slice has none yet. */
  @Nullable Part<AccumT> partFrom(Instant onTimeFrom) {
    for (Part<AccumT> part : parts) {
      if (part.onTimeFrom.equals(onTimeFrom)) {
        return part;
      }
    }
    return null;
  }

  /** The coder of a slice's parts, from the coder of the aggregate. */
  static final class SlicePartsCoder<AccumT> extends StructuredCoder<SliceParts<AccumT>> {
    private final Coder<AccumT> accumulatorCoder;

    SlicePartsCoder(Coder<AccumT> accumulatorCoder) {
      this.accumulatorCoder = accumulatorCoder;
    }

    @Override
    public void encode(SliceParts<AccumT> slice, OutputStream out) throws IOException {
      VarIntCoder.of().encode(slice.parts.size(), out);
      for (Part<AccumT> part : slice.parts) {
        InstantCoder.of().encode(part.onTimeFrom, out);
        accumulatorCoder.encode(part.accumulated, out);
        VarLongCoder.of().encode(part.records, out);
      }
      BooleanCoder.of().encode(slice.unreported, out);
    }

    @Override
    public SliceParts<AccumT> decode(InputStream in) throws IOException {
      int size = VarIntCoder.of().decode(in);
      List<Part<AccumT>> parts = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        parts.add(
            new Part<>(
                InstantCoder.of().decode(in),
                accumulatorCoder.decode(in),
                VarLongCoder.of().decode(in)));
      }
      return new SliceParts<>(parts, BooleanCoder.of().decode(in));
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
