package dev.tidemark.transforms.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.joda.time.Instant;

/**
 * Records of one key's slice of sliding or cumulating windows ({@code WindowKind}) that one batch
 * of a recording adds, all judged alike by the watermarks they met: late within the lateness for
 * the slice's windows that end from {@link #lateFrom} on, and on time for those that end from
 * {@link #onTimeFrom} on. The on-time records travel aggregated; those late within the lateness
 * travel one by one too, since each adds a LATE pane to each of those windows ({@link
 * GatherSliceRecordsFn}, {@link ReplaySlicesFn}). Mutable until it is output.
 */
final class SliceRecords<R, AccumT> {

  /** {@link #onTimeFrom} of records on time for no window of their slice. */
  static final Instant ON_TIME_FOR_NONE = new Instant(Long.MAX_VALUE);

  final Instant sliceStart;

  /** The end of the first window of the slice the records are late within the lateness for. */
  final Instant lateFrom;

  /** The end of the first window of the slice the records are on time for. */
  final Instant onTimeFrom;

  AccumT onTime;
  long onTimeRecords;

  /** The records, one by one, when they are late within the lateness for some windows. */
  final List<R> lateWithinLateness;

  SliceRecords(Instant sliceStart, Instant lateFrom, Instant onTimeFrom, AccumT emptyAccumulator) {
    this(sliceStart, lateFrom, onTimeFrom, emptyAccumulator, 0, new ArrayList<>());
  }

  private SliceRecords(
      Instant sliceStart,
      Instant lateFrom,
      Instant onTimeFrom,
      AccumT onTime,
      long onTimeRecords,
      List<R> lateWithinLateness) {
    this.sliceStart = sliceStart;
    this.lateFrom = lateFrom;
    this.onTimeFrom = onTimeFrom;
    this.onTime = onTime;
    this.onTimeRecords = onTimeRecords;
    this.lateWithinLateness = lateWithinLateness;
  }

  /** Whether the records are late within the lateness for {@code windowEnd}'s window. */
  boolean lateWithinLatenessFor(Instant windowEnd) {
    return !windowEnd.isBefore(lateFrom) && windowEnd.isBefore(onTimeFrom);
  }

  /** The coder of a slice's records, from the coders of a record and of the aggregate. */
  static final class SliceRecordsCoder<R, AccumT> extends StructuredCoder<SliceRecords<R, AccumT>> {
    private final Coder<List<R>> records;
    private final Coder<AccumT> accumulatorCoder;

    SliceRecordsCoder(Coder<R> recordCoder, Coder<AccumT> accumulatorCoder) {
      this.records = ListCoder.of(recordCoder);
      this.accumulatorCoder = accumulatorCoder;
    }

    @Override
    public void encode(SliceRecords<R, AccumT> slice, OutputStream out) throws IOException {
      InstantCoder.of().encode(slice.sliceStart, out);
      InstantCoder.of().encode(slice.lateFrom, out);
      InstantCoder.of().encode(slice.onTimeFrom, out);
      accumulatorCoder.encode(slice.onTime, out);
      VarLongCoder.of().encode(slice.onTimeRecords, out);
      records.encode(slice.lateWithinLateness, out);
    }

    @Override
    public SliceRecords<R, AccumT> decode(InputStream in) throws IOException {
      return new SliceRecords<>(
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          accumulatorCoder.decode(in),
          VarLongCoder.of().decode(in),
          new ArrayList<>(records.decode(in)));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(records, accumulatorCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(
          this,
          "the records and accumulator must encode deterministically",
          records,
          accumulatorCoder);
    }
  }
}
