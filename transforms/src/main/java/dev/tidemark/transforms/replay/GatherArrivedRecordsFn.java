package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.ArrivedLine;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The first step after a replay's source for session windows: reads each line of a batch into a
 * record, keyed, or into a dead letter, and sends each record on alone, with the batch's timestamp
 * (the lowest watermark its lines met), which holds the step after it back as the batch did. A
 * session's bounds come from each record's own time, and whether a record is late depends on the
 * sessions the records before it made, so {@link ReplaySessionsFn} judges it.
 *
 * <p>Counts {@code tidemark:recordsIn} and {@code tidemark:deadLetters}.
 */
final class GatherArrivedRecordsFn<K, R, LateT> extends DoFn<List<ArrivedLine>, KV<K, R>> {

  private final Counter recordsIn = TidemarkMetrics.recordsIn();
  private final ReplayRecordType<K, R, LateT> type;
  private final ReplayedLines<K, R, LateT> lines;
  private final TupleTag<KV<K, R>> recordsTag;

  GatherArrivedRecordsFn(
      ReplayRecordType<K, R, LateT> type, int input, TupleTag<KV<K, R>> recordsTag) {
    this.type = type;
    this.lines = new ReplayedLines<>(type, input);
    this.recordsTag = recordsTag;
  }

  @ProcessElement
  public void processElement(@Element List<ArrivedLine> batch, MultiOutputReceiver out) {
    Instant now = Instant.now();
    for (ArrivedLine line : batch) {
      @Nullable R record = lines.read(line, now, out);
      if (record != null) {
        out.get(recordsTag).output(KV.of(type.keyOf(record), record));
      }
    }
    recordsIn.inc(batch.size());
  }
}
