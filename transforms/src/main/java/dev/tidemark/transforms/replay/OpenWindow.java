package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.Event;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.KV;

/**
 * What {@link ReplayPanesFn} keeps for one key's window until it expires: its {@link WindowRecords}
 * so far, and how far its panes have got. Mutable; it lives in state only.
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

  final WindowRecords<AccumT> records;
  long panesEmitted;
  boolean closed;

  /** Wall-clock time at which the on-time records not yet reported are due in an EARLY pane. */
  long flushDueMillis;

  OpenWindow(WindowRecords<AccumT> records) {
    this(records, 0, false, NO_FLUSH);
  }

  private OpenWindow(
      WindowRecords<AccumT> records, long panesEmitted, boolean closed, long flushDueMillis) {
    this.records = records;
    this.panesEmitted = panesEmitted;
    this.closed = closed;
    this.flushDueMillis = flushDueMillis;
  }

  /** The coder of an open window whose aggregate {@code accumulatorCoder} encodes. */
  static final class OpenWindowCoder<AccumT> extends StructuredCoder<OpenWindow<AccumT>> {
    private final WindowRecords.WindowRecordsCoder<AccumT> recordsCoder;

    OpenWindowCoder(Coder<AccumT> accumulatorCoder) {
      this.recordsCoder = new WindowRecords.WindowRecordsCoder<>(accumulatorCoder);
    }

    @Override
    public void encode(OpenWindow<AccumT> window, OutputStream out) throws IOException {
      recordsCoder.encode(window.records, out);
      VarLongCoder.of().encode(window.panesEmitted, out);
      BooleanCoder.of().encode(window.closed, out);
      BigEndianLongCoder.of().encode(window.flushDueMillis, out);
    }

    @Override
    public OpenWindow<AccumT> decode(InputStream in) throws IOException {
      return new OpenWindow<>(
          recordsCoder.decode(in),
          VarLongCoder.of().decode(in),
          BooleanCoder.of().decode(in),
          BigEndianLongCoder.of().decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(recordsCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(this, "the records must encode deterministically", recordsCoder);
    }
  }
}
