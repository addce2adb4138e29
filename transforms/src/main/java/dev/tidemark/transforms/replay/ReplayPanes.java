package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The middle that every replay composite shares: keyed replayed events in, each (key, window)'s
 * panes and the records whose window had expired out, decided by {@link ReplayPanesFn}.
 *
 * @param <AccumT> what {@code aggregate} keeps per window
 * @param <OutputT> what a pane carries
 */
final class ReplayPanes<AccumT, OutputT>
    extends PTransform<PCollection<KV<String, KV<Integer, Event>>>, PCollectionTuple> {

  /** Each pane: the key, and the pane with what it carries. */
  final TupleTag<KV<String, KV<WindowPane, OutputT>>> panes = new TupleTag<>();

  /** Records whose window had expired when they arrived, with the number of their input. */
  final TupleTag<KV<Integer, LateRecord>> late = new TupleTag<>();

  private final EventTimeWindowing windowing;
  private final CombineFn<KV<Integer, Event>, AccumT, OutputT> aggregate;
  private final Coder<OutputT> outputCoder;

  ReplayPanes(
      EventTimeWindowing windowing,
      CombineFn<KV<Integer, Event>, AccumT, OutputT> aggregate,
      Coder<OutputT> outputCoder) {
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.outputCoder = outputCoder;
  }

  /** The coder of keyed replayed events, the input of this transform. */
  static KvCoder<String, KV<Integer, Event>> inputCoder() {
    return KvCoder.of(StringUtf8Coder.of(), KvCoder.of(VarIntCoder.of(), Event.Coder.of()));
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<String, KV<Integer, Event>>> keyed) {
    Coder<AccumT> accumulatorCoder;
    try {
      accumulatorCoder =
          aggregate.getAccumulatorCoder(
              keyed.getPipeline().getCoderRegistry(), inputCoder().getValueCoder());
    } catch (CannotProvideCoderException e) {
      throw new IllegalArgumentException("no coder for the accumulator of " + aggregate, e);
    }
    PCollectionTuple decided =
        keyed.apply(
            "DecidePanes",
            ParDo.of(new ReplayPanesFn<>(windowing, aggregate, accumulatorCoder, panes, late))
                .withOutputTags(panes, TupleTagList.of(late)));
    decided
        .get(panes)
        .setCoder(KvCoder.of(StringUtf8Coder.of(), KvCoder.of(WindowPane.Coder.of(), outputCoder)));
    decided.get(late).setCoder(KvCoder.of(VarIntCoder.of(), LateRecord.Coder.of()));
    return decided;
  }
}
