package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.ParseRecords;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.List;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;

/**
 * A recording of your own records aggregated per key and window with the replay's rules ({@link
 * RecordReplay#aggregatePerWindow}): {@link #panes()}, {@link #expired()} and {@link #DEAD_LETTER},
 * the outputs {@code AggregatePerWindow} gives a live run, so one pipeline's downstream steps take
 * either. Every line is in exactly one place: the final pane of its window, {@link #expired()}, or
 * {@link #DEAD_LETTER}.
 *
 * @param <K> the key
 * @param <T> the record
 * @param <OutputT> what a pane carries
 */
public final class RecordReplayPerWindow<K, T, OutputT>
    extends PTransform<PBegin, PCollectionTuple> {

  /** Lines that are no record, with the reason: {@link ParseRecords#DEAD_LETTER}. */
  public static final TupleTag<DeadLetter> DEAD_LETTER = ParseRecords.DEAD_LETTER;

  private final TupleTag<KV<K, KV<WindowPane, OutputT>>> panes = new TupleTag<>();
  private final TupleTag<KV<K, Expired<T>>> expired = new TupleTag<>();
  private final PTransform<PBegin, PCollection<List<ArrivedLine>>> read;
  private final KeyedRecordType<K, T> type;
  private final EventTimeWindowing windowing;
  private final CombineFn<T, ?, OutputT> aggregate;

  RecordReplayPerWindow(
      PTransform<PBegin, PCollection<List<ArrivedLine>>> read,
      KeyedRecordType<K, T> type,
      EventTimeWindowing windowing,
      CombineFn<T, ?, OutputT> aggregate) {
    this.read = read;
    this.type = type;
    this.windowing = windowing;
    this.aggregate = aggregate;
  }

  /** Each pane: the key, and the pane with the aggregate of its window so far. */
  public TupleTag<KV<K, KV<WindowPane, OutputT>>> panes() {
    return panes;
  }

  /** Records whose window had expired at the watermark they met, with that watermark. */
  public TupleTag<KV<K, Expired<T>>> expired() {
    return expired;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    CombineValuesFn<ArrivedRecord<T>, T, ?, OutputT> ofValues =
        new CombineValuesFn<>(aggregate, ArrivedRecord::value, type.valueCoder());
    Coder<OutputT> outputCoder;
    try {
      outputCoder = ofValues.outputCoder(begin.getPipeline().getCoderRegistry());
    } catch (CannotProvideCoderException e) {
      throw new IllegalArgumentException("no coder for the output of " + aggregate, e);
    }
    ReplayPanes<K, ArrivedRecord<T>, KV<K, Expired<T>>, ?, OutputT, KV<K, KV<WindowPane, OutputT>>>
        decide =
            new ReplayPanes<>(
                List.of(KV.of("", read)),
                type,
                windowing,
                ofValues,
                PaneFormat.keyed(),
                KvCoder.of(type.keyCoder(), KvCoder.of(WindowPane.Coder.of(), outputCoder)));
    PCollectionTuple decided = begin.apply("AggregatePanes", decide);
    return PCollectionTuple.of(panes, decided.get(decide.panes))
        .and(expired, decided.get(decide.late))
        .and(DEAD_LETTER, decided.get(decide.deadLetters));
  }
}
