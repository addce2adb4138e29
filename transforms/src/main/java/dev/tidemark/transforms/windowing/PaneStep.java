package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.SourceBatch;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SimpleFunction;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.apache.beam.sdk.values.WindowingStrategy.AccumulationMode;
import org.joda.time.Duration;

/**
 * The stateful step of {@link AggregatePerWindow} that decides the panes ({@link LivePanesFn}),
 * with the coders it needs: what every input of the aggregation, values or batches, is gathered
 * into before the shuffle.
 *
 * @param <K> the key
 * @param <V> the value
 * @param <AccumT> what the aggregate keeps per window
 * @param <OutputT> what a pane carries
 */
final class PaneStep<K, V, AccumT, OutputT> {

  private final EventTimeWindowing windowing;
  private final KvCoder<K, V> kvCoder;
  private final CombineFn<V, AccumT, OutputT> typedAggregate;
  private final Coder<AccumT> accumulatorCoder;
  private final Coder<OutputT> outputCoder;

  PaneStep(
      EventTimeWindowing windowing,
      CoderRegistry registry,
      KvCoder<K, V> kvCoder,
      CombineFn<V, AccumT, OutputT> aggregate) {
    this.windowing = windowing;
    this.kvCoder = kvCoder;
    this.typedAggregate = aggregate;
    try {
      this.accumulatorCoder = aggregate.getAccumulatorCoder(registry, kvCoder.getValueCoder());
      this.outputCoder = aggregate.getDefaultOutputCoder(registry, kvCoder.getValueCoder());
    } catch (CannotProvideCoderException e) {
      throw new IllegalArgumentException("no coder for the aggregate of " + aggregate, e);
    }
  }

  KvCoder<K, Contribution<V, AccumT>> contributionCoder() {
    return KvCoder.of(
        kvCoder.getKeyCoder(),
        Contribution.ContributionCoder.of(kvCoder.getValueCoder(), accumulatorCoder));
  }

  /** {@code values}, each a contribution of its own, to be judged one by one. */
  PCollection<KV<K, Contribution<V, AccumT>>> oneByOne(String name, PCollection<KV<K, V>> values) {
    return values
        .apply(name + "OneValueEach", MapElements.via(new OneValueEachFn<K, V, AccumT>()))
        .setCoder(contributionCoder());
  }

  /** A value as a contribution of its own. */
  private static final class OneValueEachFn<K, V, AccumT>
      extends SimpleFunction<KV<K, V>, KV<K, Contribution<V, AccumT>>> {
    @Override
    public KV<K, Contribution<V, AccumT>> apply(KV<K, V> value) {
      return KV.of(value.getKey(), Contribution.of(value.getValue()));
    }
  }

  /**
   * {@code batches} read as {@code reading} says and gathered before the shuffle ({@link
   * GatherOnTimeFn}): the contributions under {@code gathered}, and the rejected records under
   * {@code reading}'s tag when it has a coder for them.
   */
  <RecordT, InputT, RejectT> PCollectionTuple gathered(
      String name,
      PCollection<SourceBatch<RecordT>> batches,
      BatchReading<RecordT, InputT, RejectT, K, V> reading,
      TupleTag<KV<K, Contribution<V, AccumT>>> gathered) {
    PCollectionTuple gatheredAndRejected =
        batches.apply(
            name + reading.stepName(),
            ParDo.of(
                    new GatherOnTimeFn<>(
                        windowing,
                        typedAggregate,
                        kvCoder.getKeyCoder(),
                        reading.parser(),
                        reading.keyOf(),
                        reading.valueOf(),
                        gathered,
                        reading.rejected()))
                .withOutputTags(gathered, reading.rejectedOutputs()));
    gatheredAndRejected.get(gathered).setCoder(contributionCoder());
    Coder<RejectT> rejectCoder = reading.rejectCoder();
    if (rejectCoder != null) {
      gatheredAndRejected.get(reading.rejected()).setCoder(rejectCoder);
    }
    return gatheredAndRejected;
  }

  <PaneT, ExpiredT> PCollectionTuple decide(
      PCollection<KV<K, Contribution<V, AccumT>>> contributions,
      PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    Coder<K> keyCoder = kvCoder.getKeyCoder();
    Coder<V> valueCoder = kvCoder.getValueCoder();
    PCollectionTuple decided =
        inTheGlobalWindow(contributions)
            .apply(
                "DecidePanes",
                ParDo.of(panesFn(valueCoder, outputs))
                    .withOutputTags(outputs.panes(), TupleTagList.of(outputs.expired())));
    decided.get(outputs.panes()).setCoder(outputs.paneCoder(keyCoder, outputCoder));
    decided.get(outputs.expired()).setCoder(outputs.expiredCoder(keyCoder, valueCoder));
    return decided;
  }

  /**
   * The step that decides the panes: one window per record for tumbling windows ({@link
   * LivePanesFn}), one slice per record and several windows for sliding and cumulating ones ({@link
   * SlicedPanesFn}), sessions that merge for sessions ({@link SessionPanesFn}).
   */
  private <PaneT, ExpiredT> DoFn<KV<K, Contribution<V, AccumT>>, PaneT> panesFn(
      Coder<V> valueCoder, PaneOutputs<K, V, OutputT, PaneT, ExpiredT> outputs) {
    if (windowing.isTumbling()) {
      return new LivePanesFn<>(windowing, typedAggregate, valueCoder, accumulatorCoder, outputs);
    }
    return windowing.kind().merges()
        ? new SessionPanesFn<>(windowing, typedAggregate, valueCoder, accumulatorCoder, outputs)
        : new SlicedPanesFn<>(windowing, typedAggregate, valueCoder, accumulatorCoder, outputs);
  }

  /**
   * {@code input} in the global window with the default trigger, no allowed lateness and discarding
   * panes, without a step to put it there when it already is (a source's output is): on Flink,
   * re-windowing is an operator of its own that wraps every element anew.
   */
  private static <T> PCollection<T> inTheGlobalWindow(PCollection<T> input) {
    WindowingStrategy<?, ?> windowing = input.getWindowingStrategy();
    if (windowing.getWindowFn() instanceof GlobalWindows
        && windowing.getTrigger() instanceof DefaultTrigger
        && windowing.getAllowedLateness().equals(Duration.ZERO)
        && windowing.getMode() == AccumulationMode.DISCARDING_FIRED_PANES) {
      return input;
    }
    return input.apply(
        "IntoGlobalWindow",
        Window.<T>into(new GlobalWindows())
            .triggering(DefaultTrigger.of())
            .withAllowedLateness(Duration.ZERO)
            .discardingFiredPanes());
  }
}
