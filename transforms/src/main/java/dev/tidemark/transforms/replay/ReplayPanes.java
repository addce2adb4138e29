package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.List;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The body every replay composite shares: one or more recordings in; each (key, window)'s panes,
 * the records whose window had expired, and the dead letters out. Each recording is read in
 * batches, and each batch gathered into partial aggregates per (key, window) on the reader's thread
 * ({@link GatherWindowRecordsFn}); one stateful step per key decides the panes ({@link
 * ReplayPanesFn}).
 *
 * @param <AccumT> what {@code aggregate} keeps per window
 * @param <OutputT> what the aggregate of a pane is
 * @param <PaneT> what is emitted for a pane ({@link PaneFormat})
 */
final class ReplayPanes<AccumT, OutputT, PaneT> extends PTransform<PBegin, PCollectionTuple> {

  /** Lines per element from a replay's source: enough that the runner's cost per element fades. */
  static final int LINES_PER_BATCH = 512;

  /** Each pane, as the pane format makes it. */
  final TupleTag<PaneT> panes = new TupleTag<>();

  /** Records whose window had expired when they arrived, with the number of their input. */
  final TupleTag<KV<Integer, LateRecord>> late = new TupleTag<>();

  /** Lines that could not be used, with the reason. */
  final TupleTag<DeadLetter> deadLetters = ParseEvents.DEAD_LETTER;

  private final List<KV<String, Replay>> inputs;
  private final EventTimeWindowing windowing;
  private final CombineFn<KV<Integer, Event>, AccumT, OutputT> aggregate;
  private final PaneFormat<OutputT, PaneT> paneFormat;
  private final Coder<PaneT> paneCoder;

  /**
   * @param inputs the recordings, each with the name of its steps; a record's input number is its
   *     recording's place in this list
   * @param paneFormat what the pane step emits for a pane, which {@code paneCoder} encodes
   */
  ReplayPanes(
      List<KV<String, Replay>> inputs,
      EventTimeWindowing windowing,
      CombineFn<KV<Integer, Event>, AccumT, OutputT> aggregate,
      PaneFormat<OutputT, PaneT> paneFormat,
      Coder<PaneT> paneCoder) {
    this.inputs = inputs;
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.paneFormat = paneFormat;
    this.paneCoder = paneCoder;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    Coder<AccumT> accumulatorCoder;
    try {
      accumulatorCoder =
          aggregate.getAccumulatorCoder(
              begin.getPipeline().getCoderRegistry(),
              KvCoder.of(VarIntCoder.of(), Event.Coder.of()));
    } catch (CannotProvideCoderException e) {
      throw new IllegalArgumentException("no coder for the accumulator of " + aggregate, e);
    }
    TupleTag<KV<EventKey, WindowRecords<AccumT>>> gathered = new TupleTag<>();
    PCollectionList<KV<EventKey, WindowRecords<AccumT>>> allGathered =
        PCollectionList.empty(begin.getPipeline());
    PCollectionList<KV<Integer, LateRecord>> allLate = PCollectionList.empty(begin.getPipeline());
    PCollectionList<DeadLetter> allDead = PCollectionList.empty(begin.getPipeline());
    for (int input = 0; input < inputs.size(); input++) {
      String name = inputs.get(input).getKey();
      Replay replay = inputs.get(input).getValue();
      PCollectionTuple split =
          begin
              .apply("Read" + name, replay.readInBatches(LINES_PER_BATCH))
              .apply(
                  "Gather" + name,
                  ParDo.of(
                          new GatherWindowRecordsFn<>(
                              replay.parser(), input, windowing, aggregate, gathered, late))
                      .withOutputTags(gathered, TupleTagList.of(late).and(deadLetters)));
      split
          .get(gathered)
          .setCoder(
              KvCoder.of(
                  EventKey.Coder.of(), new WindowRecords.WindowRecordsCoder<>(accumulatorCoder)));
      split.get(late).setCoder(KvCoder.of(VarIntCoder.of(), LateRecord.Coder.of()));
      split.get(deadLetters).setCoder(DeadLetter.Coder.of());
      allGathered = allGathered.and(split.get(gathered));
      allLate = allLate.and(split.get(late));
      allDead = allDead.and(split.get(deadLetters));
    }
    PCollection<PaneT> decided =
        allGathered
            .apply("AllInputs", Flatten.pCollections())
            .apply(
                "DecidePanes",
                ParDo.of(new ReplayPanesFn<>(windowing, aggregate, accumulatorCoder, paneFormat)));
    decided.setCoder(paneCoder);
    return PCollectionTuple.of(panes, decided)
        .and(late, allLate.apply("AllLate", Flatten.pCollections()))
        .and(deadLetters, allDead.apply("AllDeadLetters", Flatten.pCollections()));
  }
}
