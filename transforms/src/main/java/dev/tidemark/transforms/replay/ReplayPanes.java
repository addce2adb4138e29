package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.parse.ArrivedLineParser;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFn;
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
 * @param <K> the key the records are aggregated by
 * @param <R> a record as the pane engine adds it ({@link ReplayRecordType})
 * @param <LateT> what a record whose window had expired becomes
 * @param <AccumT> what {@code aggregate} keeps per window
 * @param <OutputT> what the aggregate of a pane is
 * @param <PaneT> what is emitted for a pane ({@link PaneFormat})
 */
final class ReplayPanes<K, R, LateT, AccumT, OutputT, PaneT>
    extends PTransform<PBegin, PCollectionTuple> {

  /** Lines per element from a replay's source: enough that the runner's cost per element fades. */
  static final int LINES_PER_BATCH = 512;

  /** Each pane, as the pane format makes it. */
  final TupleTag<PaneT> panes = new TupleTag<>();

  /** Records whose window had expired when they arrived, as the record type makes them. */
  final TupleTag<LateT> late = new TupleTag<>();

  /** Lines that could not be used, with the reason. */
  final TupleTag<DeadLetter> deadLetters = ParseEvents.DEAD_LETTER;

  private final List<KV<String, PTransform<PBegin, PCollection<List<ArrivedLine>>>>> inputs;
  private final ReplayRecordType<K, R, LateT> type;
  private final EventTimeWindowing windowing;
  private final CombineFn<R, AccumT, OutputT> aggregate;
  private final PaneFormat<K, OutputT, PaneT> paneFormat;
  private final Coder<PaneT> paneCoder;

  /**
   * @param inputs the recordings' readers, each with the name of its steps; a record's input number
   *     is its recording's place in this list
   * @param type how the lines of each input become records
   * @param paneFormat what the pane step emits for a pane, which {@code paneCoder} encodes
   */
  ReplayPanes(
      List<KV<String, PTransform<PBegin, PCollection<List<ArrivedLine>>>>> inputs,
      ReplayRecordType<K, R, LateT> type,
      EventTimeWindowing windowing,
      CombineFn<R, AccumT, OutputT> aggregate,
      PaneFormat<K, OutputT, PaneT> paneFormat,
      Coder<PaneT> paneCoder) {
    this.inputs = inputs;
    this.type = type;
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.paneFormat = paneFormat;
    this.paneCoder = paneCoder;
  }

  /**
   * The replay of tidemark's own events from {@code replays}, each with the name of its steps; a
   * record's input number is its recording's place in the list.
   */
  static <AccumT, OutputT, PaneT>
      ReplayPanes<EventKey, KV<Integer, Event>, KV<Integer, Expired<Event>>, AccumT, OutputT, PaneT>
          ofEvents(
              List<KV<String, Replay>> replays,
              EventTimeWindowing windowing,
              CombineFn<KV<Integer, Event>, AccumT, OutputT> aggregate,
              PaneFormat<EventKey, OutputT, PaneT> paneFormat,
              Coder<PaneT> paneCoder) {
    List<KV<String, PTransform<PBegin, PCollection<List<ArrivedLine>>>>> inputs = new ArrayList<>();
    List<ArrivedLineParser<Event>> parsers = new ArrayList<>();
    for (KV<String, Replay> replay : replays) {
      inputs.add(KV.of(replay.getKey(), replay.getValue().readInBatches(LINES_PER_BATCH)));
      parsers.add(replay.getValue().parser());
    }
    return new ReplayPanes<>(
        inputs, new EventRecordType(parsers), windowing, aggregate, paneFormat, paneCoder);
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    Coder<AccumT> accumulatorCoder;
    try {
      accumulatorCoder =
          aggregate.getAccumulatorCoder(begin.getPipeline().getCoderRegistry(), type.recordCoder());
    } catch (CannotProvideCoderException e) {
      throw new IllegalArgumentException("no coder for the accumulator of " + aggregate, e);
    }
    if (windowing.isTumbling()) {
      TupleTag<KV<K, WindowRecords<R, AccumT>>> gathered = new TupleTag<>();
      return decide(
          begin,
          input -> new GatherWindowRecordsFn<>(type, input, windowing, aggregate, gathered, late),
          gathered,
          new WindowRecords.WindowRecordsCoder<>(type.recordCoder(), accumulatorCoder),
          new ReplayPanesFn<>(
              windowing,
              aggregate,
              type.arrivalOrder(),
              type.recordCoder(),
              accumulatorCoder,
              paneFormat));
    }
    if (windowing.kind().merges()) {
      TupleTag<KV<K, R>> records = new TupleTag<>();
      return decide(
          begin,
          input -> new GatherArrivedRecordsFn<>(type, input, records),
          records,
          type.recordCoder(),
          new ReplaySessionsFn<>(
              windowing, aggregate, type, accumulatorCoder, paneFormat, panes, late));
    }
    TupleTag<KV<K, SliceRecords<R, AccumT>>> gathered = new TupleTag<>();
    return decide(
        begin,
        input -> new GatherSliceRecordsFn<>(type, input, windowing, aggregate, gathered, late),
        gathered,
        new SliceRecords.SliceRecordsCoder<>(type.recordCoder(), accumulatorCoder),
        new ReplaySlicesFn<>(
            windowing,
            aggregate,
            type.arrivalOrder(),
            type.recordCoder(),
            accumulatorCoder,
            paneFormat));
  }

  /**
   * Each input read and gathered into what its batches add to a key's windows or slices, or into
   * its records one by one for sessions ({@code GathersT}, by the step {@code gatherOf} makes for
   * an input number, under {@code gathered}), then every input's, flattened, decided by {@code
   * decideFn}. The late records are those of the gathering steps and, for sessions, of the deciding
   * one, which alone knows whether a record could join an open session.
   */
  private <GathersT> PCollectionTuple decide(
      PBegin begin,
      IntFunction<DoFn<List<ArrivedLine>, KV<K, GathersT>>> gatherOf,
      TupleTag<KV<K, GathersT>> gathered,
      Coder<GathersT> gathersCoder,
      DoFn<KV<K, GathersT>, PaneT> decideFn) {
    PCollectionList<KV<K, GathersT>> allGathered = PCollectionList.empty(begin.getPipeline());
    PCollectionList<LateT> allLate = PCollectionList.empty(begin.getPipeline());
    PCollectionList<DeadLetter> allDead = PCollectionList.empty(begin.getPipeline());
    for (int input = 0; input < inputs.size(); input++) {
      String name = inputs.get(input).getKey();
      PCollectionTuple split =
          begin
              .apply("Read" + name, inputs.get(input).getValue())
              .apply(
                  "Gather" + name,
                  ParDo.of(gatherOf.apply(input))
                      .withOutputTags(gathered, TupleTagList.of(late).and(deadLetters)));
      split.get(gathered).setCoder(KvCoder.of(type.keyCoder(), gathersCoder));
      split.get(late).setCoder(type.lateCoder());
      split.get(deadLetters).setCoder(DeadLetter.Coder.of());
      allGathered = allGathered.and(split.get(gathered));
      allLate = allLate.and(split.get(late));
      allDead = allDead.and(split.get(deadLetters));
    }
    PCollectionTuple decided =
        allGathered
            .apply("AllInputs", Flatten.pCollections())
            .apply("DecidePanes", ParDo.of(decideFn).withOutputTags(panes, TupleTagList.of(late)));
    decided.get(panes).setCoder(paneCoder);
    decided.get(late).setCoder(type.lateCoder());
    allLate = allLate.and(decided.get(late));
    return PCollectionTuple.of(panes, decided.get(panes))
        .and(late, allLate.apply("AllLate", Flatten.pCollections()))
        .and(deadLetters, allDead.apply("AllDeadLetters", Flatten.pCollections()));
  }
}
