package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.windowing.Arrival;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The first step after a replay's source, before any shuffle: takes a batch of replayed lines
 * ({@code ReplaySource#inBatchesAtArrivalWatermark}) and decides for each line what it is, with the
 * same rules as {@link ReplayPanesFn}:
 *
 * <ul>
 *   <li>a line the format cannot parse, or too far ahead of the clock: a dead letter, with the
 *       reason;
 *   <li>a record whose window had expired at the watermark it met: the late output, at once;
 *   <li>any other record: part of its (key, window)'s {@link WindowRecords}, aggregated with the
 *       batch's other on-time records of that window, or kept by itself if it was late within the
 *       allowed lateness.
 * </ul>
 *
 * <p>One {@link WindowRecords} per (key, window) of the batch goes on, so what crosses the shuffle
 * is a partial aggregate, not every record and its text. This is exact because every decision
 * depends only on the record and the watermark it met, never on what else the batch holds; and
 * because the records are output with the batch's timestamp, the lowest arrival watermark in it,
 * which holds the downstream watermark for them as the batch itself did.
 *
 * <p>Counts {@code tidemark:recordsIn}, {@code tidemark:deadLetters} and {@code
 * tidemark:lateRecords}.
 */
final class GatherWindowRecordsFn<K, R, LateT, AccumT>
    extends DoFn<List<ArrivedLine>, KV<K, WindowRecords<R, AccumT>>> {

  private final Counter recordsIn = TidemarkMetrics.recordsIn();
  private final Counter lateRecords = TidemarkMetrics.lateRecords();
  private final ReplayRecordType<K, R, LateT> type;
  private final ReplayedLines<K, R, LateT> lines;
  private final EventTimeWindowing windowing;
  private final CombineFn<R, AccumT, ?> aggregate;
  private final TupleTag<KV<K, WindowRecords<R, AccumT>>> recordsTag;
  private final TupleTag<LateT> lateTag;

  /**
   * @param type how the lines become records
   * @param input the number of this recording among the inputs of the step (0 for a single one)
   */
  GatherWindowRecordsFn(
      ReplayRecordType<K, R, LateT> type,
      int input,
      EventTimeWindowing windowing,
      CombineFn<R, AccumT, ?> aggregate,
      TupleTag<KV<K, WindowRecords<R, AccumT>>> recordsTag,
      TupleTag<LateT> lateTag) {
    this.type = type;
    this.lines = new ReplayedLines<>(type, input);
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.recordsTag = recordsTag;
    this.lateTag = lateTag;
  }

  @ProcessElement
  public void processElement(@Element List<ArrivedLine> batch, MultiOutputReceiver out) {
    Map<KeyAndWindow, KV<K, WindowRecords<R, AccumT>>> gathered = new LinkedHashMap<>();
    Instant now = Instant.now();
    @Nullable IntervalWindow window = null;
    for (ArrivedLine line : batch) {
      @Nullable R record = lines.read(line, now, out);
      if (record == null) {
        continue;
      }
      window = windowing.windowOf(type.eventTimeOf(record), window);
      Instant arrival = line.arrivalWatermark();
      Arrival verdict = Arrival.of(windowing, window, arrival);
      if (verdict == Arrival.EXPIRED) {
        lateRecords.inc();
        out.get(lateTag).output(type.late(record, window, arrival));
        continue;
      }
      K key = type.keyOf(record);
      KeyAndWindow keyAndWindow =
          new KeyAndWindow(type.groupingKey(key), window.start().getMillis());
      @Nullable KV<K, WindowRecords<R, AccumT>> keyed = gathered.get(keyAndWindow);
      if (keyed == null) {
        keyed = KV.of(key, new WindowRecords<>(window.start(), aggregate.createAccumulator()));
        gathered.put(keyAndWindow, keyed);
      }
      WindowRecords<R, AccumT> records = keyed.getValue();
      if (verdict == Arrival.ON_TIME) {
        records.onTime = aggregate.addInput(records.onTime, record);
        records.onTimeRecords++;
      } else {
        records.lateWithinLateness.add(record);
      }
    }
    recordsIn.inc(batch.size());
    gathered.values().forEach(out.get(recordsTag)::output);
  }

  /**
   * What a batch's records are gathered by: the key as its record type groups it ({@link
   * ReplayRecordType#groupingKey}) and the window's start. A record, not a {@code KV}: it is hashed
   * once per record, and {@code KV}'s hash builds an array and goes through {@code
   * Arrays.deepHashCode}.
   */
  private record KeyAndWindow(Object groupingKey, long windowStartMillis) {}
}
