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
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.joda.time.Instant;

/**
 * Records of one key's window: those that arrived on time, aggregated, and those that arrived late
 * within the allowed lateness, one by one, since each adds a LATE pane. What one batch of a
 * recording adds to a window travels as one of these ({@link GatherWindowRecordsFn}), so a shuffle
 * carries one element per (key, window) and batch instead of one per record; the pane engine adds
 * them up. Mutable until it is output.
 */
final class WindowRecords<R, AccumT> {

  final Instant windowStart;
  AccumT onTime;
  long onTimeRecords;
  final List<R> lateWithinLateness;

  /** No records yet, in the window that starts at {@code windowStart}. */
  WindowRecords(Instant windowStart, AccumT emptyAccumulator) {
    this(windowStart, emptyAccumulator, 0, new ArrayList<>());
  }

  private WindowRecords(
      Instant windowStart, AccumT onTime, long onTimeRecords, List<R> lateWithinLateness) {
    this.windowStart = windowStart;
    this.onTime = onTime;
    this.onTimeRecords = onTimeRecords;
    this.lateWithinLateness = lateWithinLateness;
  }

  /** Adds {@code other}, which must be of the same key and window. */
  <InputT, OutputT> void addAll(
      WindowRecords<R, AccumT> other, CombineFn<InputT, AccumT, OutputT> aggregate) {
    if (other.onTimeRecords > 0) {
      onTime = aggregate.mergeAccumulators(List.of(onTime, other.onTime));
      onTimeRecords += other.onTimeRecords;
    }
    lateWithinLateness.addAll(other.lateWithinLateness);
  }

  /**
   * The coder of the records of a window, whose records {@code recordCoder} and whose aggregate
   * {@code accumulatorCoder} encodes.
   */
  static final class WindowRecordsCoder<R, AccumT>
      extends StructuredCoder<WindowRecords<R, AccumT>> {
    private final Coder<List<R>> records;
    private final Coder<AccumT> accumulatorCoder;

    WindowRecordsCoder(Coder<R> recordCoder, Coder<AccumT> accumulatorCoder) {
      this.records = ListCoder.of(recordCoder);
      this.accumulatorCoder = accumulatorCoder;
    }

    @Override
    public void encode(WindowRecords<R, AccumT> window, OutputStream out) throws IOException {
      InstantCoder.of().encode(window.windowStart, out);
      accumulatorCoder.encode(window.onTime, out);
      VarLongCoder.of().encode(window.onTimeRecords, out);
      records.encode(window.lateWithinLateness, out);
    }

    @Override
    public WindowRecords<R, AccumT> decode(InputStream in) throws IOException {
      return new WindowRecords<>(
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
