package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.Event;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.KV;

/**
 * What {@link ReplayPanesFn} keeps for one key's window until it expires: the aggregate of the
 * records that arrived on time, the records that arrived late within the allowed lateness (each
 * with the input it came from), and how far its panes have got. Mutable; it lives in state only.
 */
final class OpenWindow<AccumT> {

  /** Late records in the order a live run would have seen them: by arrival watermark, then line. */
  static final Comparator<KV<Integer, Event>> ARRIVAL_ORDER =
      Comparator.<KV<Integer, Event>, Long>comparing(
              record -> record.getValue().arrivalWatermark().getMillis())
          .thenComparing(KV::getKey)
          .thenComparing(record -> record.getValue().position());

  /** {@link #flushDueMillis} when no EARLY pane is due. */
  static final long NO_FLUSH = Long.MAX_VALUE;

  AccumT onTime;
  long onTimeRecords;
  long panesEmitted;
  boolean closed;

  /** Wall-clock time at which the on-time records not yet reported are due in an EARLY pane. */
  long flushDueMillis;

  final List<KV<Integer, Event>> lateWithinLateness;

  OpenWindow(AccumT onTime) {
    this(onTime, 0, 0, false, NO_FLUSH, new ArrayList<>());
  }

  private OpenWindow(
      AccumT onTime,
      long onTimeRecords,
      long panesEmitted,
      boolean closed,
      long flushDueMillis,
      List<KV<Integer, Event>> lateWithinLateness) {
    this.onTime = onTime;
    this.onTimeRecords = onTimeRecords;
    this.panesEmitted = panesEmitted;
    this.closed = closed;
    this.flushDueMillis = flushDueMillis;
    this.lateWithinLateness = lateWithinLateness;
  }

  /** The coder of an open window whose aggregate {@code accumulatorCoder} encodes. */
  static final class OpenWindowCoder<AccumT> extends StructuredCoder<OpenWindow<AccumT>> {
    private static final Coder<List<KV<Integer, Event>>> RECORDS =
        ListCoder.of(KvCoder.of(VarIntCoder.of(), Event.Coder.of()));

    private final Coder<AccumT> accumulatorCoder;

    OpenWindowCoder(Coder<AccumT> accumulatorCoder) {
      this.accumulatorCoder = accumulatorCoder;
    }

    @Override
    public void encode(OpenWindow<AccumT> window, OutputStream out) throws IOException {
      accumulatorCoder.encode(window.onTime, out);
      VarLongCoder.of().encode(window.onTimeRecords, out);
      VarLongCoder.of().encode(window.panesEmitted, out);
      BooleanCoder.of().encode(window.closed, out);
      BigEndianLongCoder.of().encode(window.flushDueMillis, out);
      RECORDS.encode(window.lateWithinLateness, out);
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(accumulatorCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(this, "the accumulator must encode deterministically", accumulatorCoder);
    }

    @Override
    public OpenWindow<AccumT> decode(InputStream in) throws IOException {
      return new OpenWindow<>(
          accumulatorCoder.decode(in),
          VarLongCoder.of().decode(in),
          VarLongCoder.of().decode(in),
          BooleanCoder.of().decode(in),
          BigEndianLongCoder.of().decode(in),
          new ArrayList<>(RECORDS.decode(in)));
    }
  }
}
