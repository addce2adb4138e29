package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.SourceBatch;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Before the shuffle: aggregates the values of one {@link SourceBatch} per key and slice ({@link
 * WindowKind}; for tumbling windows, a slice is a window) where the batch's watermark bound proves
 * them on time, and passes every other value on alone.
 *
 * <p>Why this keeps the accounting exact: the pane step judges a contribution by its input
 * watermark W when it arrives, and W is at most the batch's {@link SourceBatch#watermarkBound()}. A
 * window that ends after the bound is therefore still open when the partial arrives. A partial
 * gathers a slice, and every window that holds the slice ends no earlier than the first one: if
 * that one ends after the bound, every value of the slice is on time in each of its windows,
 * exactly as it would have been alone. A value whose slice's first window ends at or before the
 * bound may be late or expired for some window; it goes alone, so the pane step can capture it. A
 * partial is emitted at its earliest value's event time, inside its slice.
 *
 * <p>Keys are grouped with their coder's structural value, so any deterministic key coder works.
 * Each record is first parsed ({@link RecordParser}; batches that need no parse pass through {@link
 * #everyRecord}), then its key and value come from what it parsed to through two functions, so a
 * batch of plain values (an {@code Event} and its key) needs no step before this one to turn each
 * into a {@code KV}. A record the parser rejects goes to the rejected output, and nowhere else.
 *
 * <p>Per record it allocates the aggregate's work and one map key, of the structural key and the
 * slice's start millis, by which the record's partial is found; a record in the slice of the record
 * before it reuses that slice (a timestamp inside a slice's bounds belongs to that slice).
 */
final class GatherOnTimeFn<RecordT, InputT, RejectT, K, V, AccumT>
    extends DoFn<SourceBatch<RecordT>, KV<K, Contribution<V, AccumT>>> {

  private final EventTimeWindowing windowing;
  private final CombineFn<V, AccumT, ?> aggregate;
  private final Coder<K> keyCoder;
  private final RecordParser<RecordT, InputT, RejectT> parser;
  private final SerializableFunction<InputT, K> keyOf;
  private final SerializableFunction<InputT, V> valueOf;
  private final TupleTag<KV<K, Contribution<V, AccumT>>> contributions;
  private final TupleTag<RejectT> rejected;

  GatherOnTimeFn(
      EventTimeWindowing windowing,
      CombineFn<V, AccumT, ?> aggregate,
      Coder<K> keyCoder,
      RecordParser<RecordT, InputT, RejectT> parser,
      SerializableFunction<InputT, K> keyOf,
      SerializableFunction<InputT, V> valueOf,
      TupleTag<KV<K, Contribution<V, AccumT>>> contributions,
      TupleTag<RejectT> rejected) {
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.keyCoder = keyCoder;
    this.parser = parser;
    this.keyOf = keyOf;
    this.valueOf = valueOf;
    this.contributions = contributions;
    this.rejected = rejected;
  }

  /** The parser of batches whose records are the values themselves: it rejects none. */
  static <T> RecordParser<T, T, Void> everyRecord() {
    return (record, now, rejected) -> record;
  }

  @ProcessElement
  public void processElement(@Element SourceBatch<RecordT> batch, MultiOutputReceiver outputs) {
    OutputReceiver<KV<K, Contribution<V, AccumT>>> out = outputs.get(contributions);
    // Looked up only when a record is rejected: a parser that rejects none has no such output.
    Consumer<RejectT> rejects = reject -> outputs.get(rejected).output(reject);
    parser.batchOf(batch.records().size());
    Instant now = Instant.now();
    long bound = batch.watermarkBound().getMillis();
    // A session's bounds come from each record's own time: every record goes alone.
    boolean sessions = windowing.kind().merges();
    Map<KeyInWindow, Partial<K, AccumT>> partials = new LinkedHashMap<>();
    @Nullable IntervalWindow slice = null;
    // When the first window of the slice closes: the slice's records are on time before that.
    long firstClose = Long.MIN_VALUE;
    for (TimestampedValue<RecordT> read : batch.records()) {
      @Nullable TimestampedValue<InputT> record = parser.parse(read, now, rejects);
      if (record == null) {
        continue;
      }
      IntervalWindow previous = slice;
      slice = windowing.sliceOf(record.getTimestamp(), previous);
      if (slice != previous) {
        firstClose = windowing.kind().firstWindowEndOfSlice(slice.start()).getMillis();
      }
      K key = keyOf.apply(record.getValue());
      V value = valueOf.apply(record.getValue());
      if (firstClose <= bound || sessions) {
        out.outputWithTimestamp(KV.of(key, Contribution.of(value)), record.getTimestamp());
        continue;
      }
      KeyInWindow keyInWindow =
          new KeyInWindow(keyCoder.structuralValue(key), slice.start().getMillis());
      Partial<K, AccumT> partial = partials.get(keyInWindow);
      if (partial == null) {
        partial = new Partial<>(key, aggregate.createAccumulator(), record.getTimestamp());
        partials.put(keyInWindow, partial);
      }
      partial.accumulated = aggregate.addInput(partial.accumulated, value);
      partial.records++;
      if (record.getTimestamp().isBefore(partial.earliest)) {
        partial.earliest = record.getTimestamp();
      }
    }
    for (Partial<K, AccumT> partial : partials.values()) {
      out.outputWithTimestamp(
          KV.of(partial.key, Contribution.onTime(partial.accumulated, partial.records)),
          partial.earliest);
    }
  }

  /** A key's structural value and the start of a window: what a partial is found by. */
  private record KeyInWindow(Object structuralKey, long windowStartMillis) {}

  /** One key's values in one window of the batch, so far. */
  private static final class Partial<K, AccumT> {
    final K key;
    AccumT accumulated;
    long records;
    Instant earliest;

    Partial(K key, AccumT accumulated, Instant earliest) {
      this.key = key;
      this.accumulated = accumulated;
      this.earliest = earliest;
    }
  }
}
