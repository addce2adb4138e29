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
 * The first step after a replay's source for sliding and cumulating windows, the counterpart of
 * {@link GatherWindowRecordsFn}: judges each record of a batch by the watermark it met, window by
 * window, and gathers it into its key's slice ({@link SliceRecords}).
 *
 * <p>A slice's windows, by their ends, are first those that had expired under the record's
 * watermark, then those it is late within the lateness for, then those it is on time for. A record
 * that missed every window goes to the late output; one that missed some goes there once too,
 * naming the latest window it missed, and is gathered for the rest. Records of one key and slice
 * that are late and on time from the same windows on travel together, the on-time ones aggregated,
 * so what crosses the shuffle is one element per (key, slice, verdict) and batch.
 *
 * <p>Counts {@code tidemark:recordsIn}, {@code tidemark:deadLetters}, {@code tidemark:lateRecords}
 * and {@code tidemark:partlyLateRecords}.
 */
final class GatherSliceRecordsFn<K, R, LateT, AccumT>
    extends DoFn<List<ArrivedLine>, KV<K, SliceRecords<R, AccumT>>> {

  private final Counter recordsIn = TidemarkMetrics.recordsIn();
  private final Counter lateRecords = TidemarkMetrics.lateRecords();
  private final Counter partlyLateRecords = TidemarkMetrics.partlyLateRecords();
  private final ReplayRecordType<K, R, LateT> type;
  private final ReplayedLines<K, R, LateT> lines;
  private final EventTimeWindowing windowing;
  private final CombineFn<R, AccumT, ?> aggregate;
  private final TupleTag<KV<K, SliceRecords<R, AccumT>>> slicesTag;
  private final TupleTag<LateT> lateTag;

  GatherSliceRecordsFn(
      ReplayRecordType<K, R, LateT> type,
      int input,
      EventTimeWindowing windowing,
      CombineFn<R, AccumT, ?> aggregate,
      TupleTag<KV<K, SliceRecords<R, AccumT>>> slicesTag,
      TupleTag<LateT> lateTag) {
    this.type = type;
    this.lines = new ReplayedLines<>(type, input);
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.slicesTag = slicesTag;
    this.lateTag = lateTag;
  }

  @ProcessElement
  public void processElement(@Element List<ArrivedLine> batch, MultiOutputReceiver out) {
    Map<KeySliceAndVerdict, KV<K, SliceRecords<R, AccumT>>> gathered = new LinkedHashMap<>();
    Instant now = Instant.now();
    @Nullable IntervalWindow slice = null;
    List<IntervalWindow> windows = List.of();
    for (ArrivedLine line : batch) {
      @Nullable R record = lines.read(line, now, out);
      if (record == null) {
        continue;
      }
      IntervalWindow previous = slice;
      slice = windowing.sliceOf(type.eventTimeOf(record), previous);
      if (slice != previous) {
        windows = windowing.kind().windowsOfSlice(slice.start());
      }
      Instant arrival = line.arrivalWatermark();
      @Nullable IntervalWindow lastMissed = null;
      @Nullable Instant lateFrom = null;
      Instant onTimeFrom = SliceRecords.ON_TIME_FOR_NONE;
      for (IntervalWindow window : windows) {
        Arrival verdict = Arrival.of(windowing, window, arrival);
        if (verdict == Arrival.EXPIRED) {
          lastMissed = window;
        } else if (verdict == Arrival.LATE_WITHIN_LATENESS) {
          lateFrom = lateFrom == null ? window.end() : lateFrom;
        } else {
          // Windows end later and later: the record is on time for this one and every later one.
          onTimeFrom = window.end();
          break;
        }
      }
      if (lastMissed != null) {
        lateRecords.inc();
        out.get(lateTag).output(type.late(record, lastMissed, arrival));
        if (lateFrom == null && onTimeFrom == SliceRecords.ON_TIME_FOR_NONE) {
          continue;
        }
        partlyLateRecords.inc();
      }
      lateFrom = lateFrom == null ? onTimeFrom : lateFrom;
      K key = type.keyOf(record);
      KeySliceAndVerdict where =
          new KeySliceAndVerdict(
              type.groupingKey(key),
              slice.start().getMillis(),
              lateFrom.getMillis(),
              onTimeFrom.getMillis());
      @Nullable KV<K, SliceRecords<R, AccumT>> keyed = gathered.get(where);
      if (keyed == null) {
        keyed =
            KV.of(
                key,
                new SliceRecords<>(
                    slice.start(), lateFrom, onTimeFrom, aggregate.createAccumulator()));
        gathered.put(where, keyed);
      }
      SliceRecords<R, AccumT> records = keyed.getValue();
      if (onTimeFrom != SliceRecords.ON_TIME_FOR_NONE) {
        records.onTime = aggregate.addInput(records.onTime, record);
        records.onTimeRecords++;
      }
      if (lateFrom.isBefore(onTimeFrom)) {
        records.lateWithinLateness.add(record);
      }
    }
    recordsIn.inc(batch.size());
    gathered.values().forEach(out.get(slicesTag)::output);
  }

  /**
   * What a batch's records are gathered by: key, slice, and the windows they are late and on time
   * for.
   */
  private record KeySliceAndVerdict(
      Object groupingKey, long sliceStartMillis, long lateFromMillis, long onTimeFromMillis) {}
}
