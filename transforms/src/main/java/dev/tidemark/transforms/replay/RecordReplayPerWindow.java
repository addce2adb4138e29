package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.KeyedExpired;
import dev.tidemark.transforms.windowing.KeyedPane;
import dev.tidemark.transforms.windowing.PerWindowResult;
import java.util.List;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * A recording of your own records aggregated per key and window with the replay's rules ({@link
 * RecordReplay#aggregatePerWindow}), in a {@link PerWindowResult}, as {@code
 * AggregatePerWindow.intoResult} gives a live run's, so one pipeline's downstream steps take
 * either. Every line is in exactly one place: the final pane of its window, the expired records, or
 * the dead letters.
 *
 * @param <K> the key
 * @param <T> the record
 * @param <OutputT> what a pane carries
 */
public final class RecordReplayPerWindow<K, T, OutputT>
    extends PTransform<PBegin, PerWindowResult<K, T, OutputT>> {

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

  @Override
  public PerWindowResult<K, T, OutputT> expand(PBegin begin) {
    CombineValuesFn<ArrivedRecord<T>, T, ?, OutputT> ofValues =
        new CombineValuesFn<>(aggregate, ArrivedRecord::value, type.valueCoder());
    Coder<OutputT> outputCoder;
    try {
      outputCoder = ofValues.outputCoder(begin.getPipeline().getCoderRegistry());
    } catch (CannotProvideCoderException e) {
      throw new IllegalArgumentException("no coder for the output of " + aggregate, e);
    }
    ReplayPanes<K, ArrivedRecord<T>, KeyedExpired<K, T>, ?, OutputT, KeyedPane<K, OutputT>> decide =
        new ReplayPanes<>(
            List.of(KV.of("", read)),
            type,
            windowing,
            ofValues,
            PaneFormat.countedKeyedPanes(),
            KeyedPane.KeyedPaneCoder.of(type.keyCoder(), outputCoder));
    PCollectionTuple decided = begin.apply("AggregatePanes", decide);
    return PerWindowResult.of(
        decided.get(decide.panes),
        decided.get(decide.late),
        PCollectionList.of(decided.get(decide.deadLetters)));
  }
}
