package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.model.WindowPane;
import java.util.List;
import java.util.function.Function;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Aggregates each key's values per {@link EventTimeWindowing} window with a {@code CombineFn}, and
 * captures every value whose window had expired instead of dropping it: tidemark's late capture and
 * panes for any {@code KV<K, V>}, in one stateful step per key, with the pane rules of {@link
 * PaneEngine} judged by the step's own input watermark.
 *
 * <pre>{@code
 * AggregatePerWindow<String, Long, Long> sum = AggregatePerWindow.of(windowing, Sum.ofLongs());
 * PCollectionTuple out = valuesByKey.apply(sum);   // element timestamps are event times
 * out.get(sum.panes());   // KV(key, KV(pane, sum so far)), one per pane
 * out.get(sum.expired()); // KV(key, Expired(value, event time, window, watermark))
 * }</pre>
 *
 * <h2>Why the accounting is exact</h2>
 *
 * <p>One step decides both whether a value is late and which panes it is in. It reads its input
 * watermark W exactly when the value reaches it (an event-time timer's {@code
 * getCurrentRelativeTime()}); a value whose window has expired under W ({@link
 * EventTimeWindowing#isExpired}) goes to {@link #expired()}, and every other value is added to its
 * window's state, whose final pane is emitted only when the watermark expires the window. Before a
 * value is judged, any deadline of its window that W has already reached is applied, so a value
 * never joins a pane that closed without it. Hence every value is in exactly one place: the final
 * pane of its window, or {@link #expired()}. There is no second step that could judge it by another
 * watermark, as a GroupByKey after a separate late-capture step could.
 *
 * <h2>How the panes may differ from the preset's</h2>
 *
 * <p>Beam's own trigger over the same windows, followed by a {@code Combine}, is the specification
 * of these panes (in the tests), and a differential test holds the two to the same final value per
 * window, the same expired values and the same dead letters. The panes before the final one may be
 * grouped differently:
 *
 * <ul>
 *   <li>Beam fires once per bundle: late values that reach it in one bundle share one LATE pane,
 *       and so may on-time values that pass the idle flush together. Here each late value within
 *       the lateness has a LATE pane of its own, emitted as it comes.
 *   <li>When the watermark passes a window's end and its expiry at once, both make its ON_TIME pane
 *       final; if it passes them in two steps, both emit ON_TIME and then a final LATE pane with
 *       the same value.
 * </ul>
 *
 * <p>The input may be in any windowing: the step re-windows into the global window (unless it is
 * there already, as a source's output is), since a stateful step over the target windows would drop
 * expired values before its code saw them. Its outputs are in the global window, each pane
 * timestamped when it was decided.
 *
 * <p>On the FlinkRunner, run with {@code --maxBundleSize=1}: Beam's Flink operators hand the
 * watermark on only between bundles, and one whose input never pauses (a source catching up on a
 * backlog) hands it on only when a bundle ends by count, every 1,000 elements by default. Windows
 * then close only that often, and stay open, with EARLY panes, until the backlog is read; and once
 * a step's input pauses, it holds its last panes and the watermark until its bundle ends by time, a
 * second by default. Over a recording, or with a sink that waits for its server as each bundle ends
 * (a Kafka writer), use {@code --maxBundleSize=100 --maxBundleTimeMills=100} instead: each bundle's
 * end costs the runner a pass over the task's metrics, and such a sink a round trip. Put no step of
 * your own between a batching source and {@link #ofBatches()}: parse there with {@link
 * #ofBatchesParsedBy} ({@link RecordParser} says why).
 *
 * @param <K> the key, whose coder must be deterministic
 * @param <V> the value
 * @param <OutputT> what a pane carries
 */
public final class AggregatePerWindow<K, V, OutputT>
    extends PTransform<PCollection<KV<K, V>>, PCollectionTuple> {

  private final TupleTag<KV<K, KV<WindowPane, OutputT>>> panes = new TupleTag<>();
  private final TupleTag<KV<K, Expired<V>>> expired = new TupleTag<>();
  private final EventTimeWindowing windowing;
  private final CombineFn<V, ?, OutputT> aggregate;

  private AggregatePerWindow(EventTimeWindowing windowing, CombineFn<V, ?, OutputT> aggregate) {
    this.windowing = windowing;
    this.aggregate = aggregate;
  }

  /** Aggregates with {@code aggregate} in {@code windowing}'s windows. */
  public static <K, V, OutputT> AggregatePerWindow<K, V, OutputT> of(
      EventTimeWindowing windowing, CombineFn<V, ?, OutputT> aggregate) {
    return new AggregatePerWindow<>(windowing, aggregate);
  }

  /** Each pane: the key, and the pane with the aggregate of its window so far. */
  public TupleTag<KV<K, KV<WindowPane, OutputT>>> panes() {
    return panes;
  }

  /** Values whose window had expired when they arrived. */
  public TupleTag<KV<K, Expired<V>>> expired() {
    return expired;
  }

  /**
   * The same aggregation for values that come in {@link SourceBatch}es: a batch's values whose
   * window its watermark bound keeps open are aggregated before the shuffle ({@link
   * GatherOnTimeFn}), so the pane step reads and writes its state once per key and window of a
   * batch, not once per value. The outputs, and what is exact, are the same; the tags are this
   * transform's.
   */
  public PTransform<PCollection<SourceBatch<KV<K, V>>>, PCollectionTuple> ofBatches() {
    return decidingBatches(
        batches -> {
          if (!(recordCoderOf(batches, "ofBatches") instanceof KvCoder<K, V> kvCoder)) {
            throw new IllegalArgumentException(
                "AggregatePerWindow.ofBatches needs batches of KVs with a KvCoder; "
                    + batches
                    + " has "
                    + batches.getCoder());
          }
          return kvCoder;
        },
        BatchReading.<KV<K, V>, K, V>unparsed(KV::getKey, KV::getValue),
        keyed());
  }

  /**
   * The same as {@link #ofBatches()} for batches of plain values, each keyed by {@code keyOf},
   * whose keys {@code keyCoder} encodes: no step before it pairs each value with its key.
   */
  public PTransform<PCollection<SourceBatch<V>>, PCollectionTuple> ofBatchesKeyedBy(
      SerializableFunction<V, K> keyOf, Coder<K> keyCoder) {
    return ofBatchesKeyedBy(keyOf, keyCoder, keyed());
  }

  /**
   * The same as {@link #ofBatchesKeyedBy(SerializableFunction, Coder)}, with the panes and expired
   * values emitted as {@code outputs} makes them, under its tags.
   */
  <PaneT, ExpiredT> PTransform<PCollection<SourceBatch<V>>, PCollectionTuple> ofBatchesKeyedBy(
      SerializableFunction<V, K> keyOf,
      Coder<K> keyCoder,
      PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    return decidingBatches(
        batches -> KvCoder.of(keyCoder, recordCoderOf(batches, "ofBatchesKeyedBy")),
        BatchReading.<V, K, V>unparsed(keyOf, value -> value),
        outputs);
  }

  /**
   * The same as {@link #ofBatchesKeyedBy(SerializableFunction, Coder)} for batches of raw records,
   * each turned into a value, whose coder is {@code valueCoder}, by {@code parser} in the step that
   * gathers them: on Flink a parse step of its own before it would hold back the watermark while
   * the source never pauses ({@link RecordParser} says why). The output also has {@code rejected}:
   * the rejects of the records {@code parser} has no value for, coded by {@code rejectCoder}.
   */
  public <RecordT, RejectT>
      PTransform<PCollection<SourceBatch<RecordT>>, PCollectionTuple> ofBatchesParsedBy(
          RecordParser<RecordT, V, RejectT> parser,
          Coder<V> valueCoder,
          SerializableFunction<V, K> keyOf,
          Coder<K> keyCoder,
          TupleTag<RejectT> rejected,
          Coder<RejectT> rejectCoder) {
    return ofBatchesParsedBy(parser, valueCoder, keyOf, keyCoder, rejected, rejectCoder, keyed());
  }

  /**
   * The same as {@link #ofBatchesParsedBy(RecordParser, Coder, SerializableFunction, Coder,
   * TupleTag, Coder)}, with the panes and expired values emitted as {@code outputs} makes them.
   */
  <RecordT, RejectT, PaneT, ExpiredT>
      PTransform<PCollection<SourceBatch<RecordT>>, PCollectionTuple> ofBatchesParsedBy(
          RecordParser<RecordT, V, RejectT> parser,
          Coder<V> valueCoder,
          SerializableFunction<V, K> keyOf,
          Coder<K> keyCoder,
          TupleTag<RejectT> rejected,
          Coder<RejectT> rejectCoder,
          PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    return decidingBatches(
        batches -> KvCoder.of(keyCoder, valueCoder),
        new BatchReading<>(parser, keyOf, value -> value, rejected, rejectCoder),
        outputs);
  }

  /**
   * The transform that decides the panes of batches: gathered as {@code reading} says, before the
   * shuffle, with keys and values coded by what {@code kvCoderOf} says for the batches.
   */
  private <RecordT, InputT, RejectT, PaneT, ExpiredT>
      PTransform<PCollection<SourceBatch<RecordT>>, PCollectionTuple> decidingBatches(
          Function<PCollection<SourceBatch<RecordT>>, KvCoder<K, V>> kvCoderOf,
          BatchReading<RecordT, InputT, RejectT, K, V> reading,
          PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    return new PTransform<PCollection<SourceBatch<RecordT>>, PCollectionTuple>() {
      @Override
      public PCollectionTuple expand(PCollection<SourceBatch<RecordT>> batches) {
        return decideBatches(batches, kvCoderOf.apply(batches), reading, aggregate, outputs);
      }
    };
  }

  /**
   * This transform, with the panes and expired values emitted as {@code outputs} makes them, under
   * its tags.
   */
  <PaneT, ExpiredT> PTransform<PCollection<KV<K, V>>, PCollectionTuple> emitting(
      PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    return new PTransform<PCollection<KV<K, V>>, PCollectionTuple>() {
      @Override
      public PCollectionTuple expand(PCollection<KV<K, V>> input) {
        return decideValues(input, kvCoderOf(input), aggregate, outputs);
      }
    };
  }

  /**
   * Aggregates with {@code aggregate} in {@code windowing}'s windows, with the outputs in one
   * {@link PerWindowResult}, to apply inline: each pane as a {@link KeyedPane}, the final ones on
   * their own ({@link PerWindowResult#finalPanes()}), and the expired values, with no tags to keep.
   * Its key and value types come from the collection it is applied to.
   */
  public static <K, V, OutputT>
      PTransform<PCollection<KV<K, V>>, PerWindowResult<K, V, OutputT>> intoResult(
          EventTimeWindowing windowing, CombineFn<V, ?, OutputT> aggregate) {
    return new AggregatePerWindow<K, V, OutputT>(windowing, aggregate).new AsResult();
  }

  /** The transform of {@link #intoResult}, named as this aggregation is. */
  private final class AsResult
      extends PTransform<PCollection<KV<K, V>>, PerWindowResult<K, V, OutputT>> {

    private AsResult() {
      super(AggregatePerWindow.this.getName());
    }

    @Override
    public PerWindowResult<K, V, OutputT> expand(PCollection<KV<K, V>> input) {
      TupleTag<KeyedPane<K, OutputT>> typedPanes = new TupleTag<>();
      TupleTag<KeyedExpired<K, V>> expiredValues = new TupleTag<>();
      PCollectionTuple decided =
          decideValues(
              input,
              kvCoderOf(input),
              aggregate,
              new PaneOutputs.Typed<>(typedPanes, expiredValues));
      return PerWindowResult.of(
          decided.get(typedPanes),
          decided.get(expiredValues),
          PCollectionList.empty(input.getPipeline()));
    }
  }

  /** The outputs of {@link #panes()} and {@link #expired()}. */
  private PaneOutputs.Keyed<K, V, OutputT> keyed() {
    return new PaneOutputs.Keyed<>(panes, expired);
  }

  /** The coder of one record of {@code batches}, which must have a {@link SourceBatch} coder. */
  private static <T> Coder<T> recordCoderOf(PCollection<SourceBatch<T>> batches, String method) {
    if (!(batches.getCoder() instanceof SourceBatch.SourceBatchCoder<T> batchCoder)) {
      throw new IllegalArgumentException(
          "AggregatePerWindow."
              + method
              + " needs a SourceBatchCoder; "
              + batches
              + " has "
              + batches.getCoder());
    }
    return batchCoder.recordCoder();
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<K, V>> input) {
    return decideValues(input, kvCoderOf(input), aggregate, keyed());
  }

  private static <K, V> KvCoder<K, V> kvCoderOf(PCollection<KV<K, V>> input) {
    if (!(input.getCoder() instanceof KvCoder<K, V> kvCoder)) {
      throw new IllegalArgumentException(
          "AggregatePerWindow needs a KvCoder on its input; " + input + " has " + input.getCoder());
    }
    return kvCoder;
  }

  private <AccumT, PaneT, ExpiredT> PCollectionTuple decideValues(
      PCollection<KV<K, V>> input,
      KvCoder<K, V> kvCoder,
      CombineFn<V, AccumT, OutputT> typedAggregate,
      PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    PaneStep<K, V, AccumT, OutputT> step =
        new PaneStep<>(windowing, input.getPipeline().getCoderRegistry(), kvCoder, typedAggregate);
    return step.decide(step.oneByOne("", input), outputs);
  }

  private <RecordT, InputT, RejectT, AccumT, PaneT, ExpiredT> PCollectionTuple decideBatches(
      PCollection<SourceBatch<RecordT>> batches,
      KvCoder<K, V> kvCoder,
      BatchReading<RecordT, InputT, RejectT, K, V> reading,
      CombineFn<V, AccumT, OutputT> typedAggregate,
      PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    PaneStep<K, V, AccumT, OutputT> step =
        new PaneStep<>(
            windowing, batches.getPipeline().getCoderRegistry(), kvCoder, typedAggregate);
    TupleTag<KV<K, Contribution<V, AccumT>>> gathered = new TupleTag<>();
    PCollectionTuple gatheredAndRejected = step.gathered("", batches, reading, gathered);
    PCollectionTuple decided = step.decide(gatheredAndRejected.get(gathered), outputs);
    return reading.rejectCoder() == null
        ? decided
        : decided.and(reading.rejected(), gatheredAndRejected.get(reading.rejected()));
  }

  /**
   * This aggregation over several inputs at once, decided in one pane step: each of {@code inputs}
   * is gathered as {@link AggregateInput} says, and its records are judged, aggregated and captured
   * as one input's would be. For a join, each side is an input whose values say their side. The
   * output has {@link #panes()}, {@link #expired()} and {@code rejected}: the records that the
   * parser of a batch input had no value for, coded by {@code rejectCoder}.
   */
  public <RejectT> PTransform<PBegin, PCollectionTuple> ofInputs(
      List<AggregateInput<K, V, RejectT>> inputs,
      KvCoder<K, V> kvCoder,
      TupleTag<RejectT> rejected,
      Coder<RejectT> rejectCoder) {
    return new PTransform<PBegin, PCollectionTuple>() {
      @Override
      public PCollectionTuple expand(PBegin begin) {
        return decideInputs(begin.getPipeline(), inputs, kvCoder, aggregate, rejected, rejectCoder);
      }
    };
  }

  private <AccumT, RejectT> PCollectionTuple decideInputs(
      Pipeline pipeline,
      List<AggregateInput<K, V, RejectT>> inputs,
      KvCoder<K, V> kvCoder,
      CombineFn<V, AccumT, OutputT> typedAggregate,
      TupleTag<RejectT> rejected,
      Coder<RejectT> rejectCoder) {
    PaneStep<K, V, AccumT, OutputT> step =
        new PaneStep<>(windowing, pipeline.getCoderRegistry(), kvCoder, typedAggregate);
    PCollectionList<KV<K, Contribution<V, AccumT>>> contributions = PCollectionList.empty(pipeline);
    PCollectionList<RejectT> rejects = PCollectionList.empty(pipeline);
    for (AggregateInput<K, V, RejectT> input : inputs) {
      TupleTag<KV<K, Contribution<V, AccumT>>> gathered = new TupleTag<>();
      PCollectionTuple gatheredAndRejected = input.gather(step, gathered, rejected, rejectCoder);
      contributions = contributions.and(gatheredAndRejected.get(gathered));
      if (gatheredAndRejected.has(rejected)) {
        rejects = rejects.and(gatheredAndRejected.get(rejected));
      }
    }
    PCollectionTuple decided =
        step.decide(
            contributions
                .apply("AllInputs", Flatten.pCollections())
                .setCoder(step.contributionCoder()),
            keyed());
    return rejects.size() == 0
        ? decided
        : decided.and(
            rejected, rejects.apply("AllRejected", Flatten.pCollections()).setCoder(rejectCoder));
  }
}
