package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.Event;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/**
 * Records of one key's window: those that arrived on time, aggregated, and those that arrived late
 * within the allowed lateness, one by one with the number of their input, since each adds a LATE
 * pane. What one batch of a recording adds to a window travels as one of these ({@link
 * GatherWindowRecordsFn}), so a shuffle carries one element per (key, window) and batch instead of
 * one per record; the pane engine adds them up. Mutable until it is output.
 */
final class WindowRecords<AccumT> {

  final Instant windowStart;
  AccumT onTime;
  long onTimeRecords;
  final List<KV<Integer, Event>> lateWithinLateness;

  /** No records yet, in the window that starts at {@code windowStart}. */
  WindowRecords(Instant windowStart, AccumT emptyAccumulator) {
    this(windowStart, emptyAccumulator, 0, new ArrayList<>());
  }

  private WindowRecords(
      Instant windowStart,
      AccumT onTime,
      long onTimeRecords,
      List<KV<Integer, Event>> lateWithinLateness) {
    this.windowStart = windowStart;
    this.onTime = onTime;
    this.onTimeRecords = onTimeRecords;
    this.lateWithinLateness = lateWithinLateness;
  }

  /** Adds {@code other}, which must be of the same key and window. */
  <InputT, OutputT> void addAll(
      WindowRecords<AccumT> other, CombineFn<InputT, AccumT, OutputT> aggregate) {
    if (other.onTimeRecords > 0) {
      onTime = aggregate.mergeAccumulators(List.of(onTime, other.onTime));
      onTimeRecords += other.onTimeRecords;
    }
    lateWithinLateness.addAll(other.lateWithinLateness);
  }

  /** The coder of the records of a window whose aggregate {@code accumulatorCoder} encodes. */
  static final class WindowRecordsCoder<AccumT> extends StructuredCoder<WindowRecords<AccumT>> {
    private static final Coder<List<KV<Integer, Event>>> RECORDS =
        ListCoder.of(KvCoder.of(VarIntCoder.of(), Event.Coder.of()));

    private final Coder<AccumT> accumulatorCoder;

    WindowRecordsCoder(Coder<AccumT> accumulatorCoder) {
      this.accumulatorCoder = accumulatorCoder;
    }

    @Override
    public void encode(WindowRecords<AccumT> records, OutputStream out) throws IOException {
      InstantCoder.of().encode(records.windowStart, out);
      accumulatorCoder.encode(records.onTime, out);
      VarLongCoder.of().encode(records.onTimeRecords, out);
      RECORDS.encode(records.lateWithinLateness, out);
    }

    @Override
    public WindowRecords<AccumT> decode(InputStream in) throws IOException {
      return new WindowRecords<>(
          InstantCoder.of().decode(in),
          accumulatorCoder.decode(in),
          VarLongCoder.of().decode(in),
          new ArrayList<>(RECORDS.decode(in)));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(accumulatorCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(this, "the accumulator must encode deterministically", accumulatorCoder);
    }
  }
}
