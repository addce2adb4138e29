package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.SourceBatch;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * Before the shuffle: aggregates the values of one {@link SourceBatch} per key and window where the
 * batch's watermark bound proves them on time, and passes every other value on alone.
 *
 * <p>Why this keeps the accounting exact: the pane step judges a contribution by its input
 * watermark W when it arrives, and W is at most the batch's {@link SourceBatch#watermarkBound()}. A
 * window that ends after the bound is therefore still open when the partial arrives, so every value
 * in it is on time, exactly as it would have been alone. A value whose window ends at or before the
 * bound may be late or expired; it goes alone, so the pane step can capture it. A partial is
 * emitted at its earliest value's event time, inside its window.
 *
 * <p>Keys are grouped with their coder's structural value, so any deterministic key coder works.
 */
final class GatherOnTimeFn<K, V, AccumT>
    extends DoFn<SourceBatch<KV<K, V>>, KV<K, Contribution<V, AccumT>>> {

  private final EventTimeWindowing windowing;
  private final CombineFn<V, AccumT, ?> aggregate;
  private final Coder<K> keyCoder;

  GatherOnTimeFn(
      EventTimeWindowing windowing, CombineFn<V, AccumT, ?> aggregate, Coder<K> keyCoder) {
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.keyCoder = keyCoder;
  }

  @ProcessElement
  public void processElement(
      @Element SourceBatch<KV<K, V>> batch, OutputReceiver<KV<K, Contribution<V, AccumT>>> out) {
    Map<KV<Object, Instant>, Partial<K, AccumT>> partials = new LinkedHashMap<>();
    for (TimestampedValue<KV<K, V>> record : batch.records()) {
      KV<K, V> keyed = record.getValue();
      IntervalWindow window = windowing.windowOf(record.getTimestamp());
      if (!window.end().isAfter(batch.watermarkBound())) {
        out.outputWithTimestamp(
            KV.of(keyed.getKey(), Contribution.of(keyed.getValue())), record.getTimestamp());
        continue;
      }
      Partial<K, AccumT> partial =
          partials.computeIfAbsent(
              KV.of(keyCoder.structuralValue(keyed.getKey()), window.start()),
              ignored ->
                  new Partial<>(
                      keyed.getKey(), aggregate.createAccumulator(), record.getTimestamp()));
      partial.accumulated = aggregate.addInput(partial.accumulated, keyed.getValue());
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
