package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.Event;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.values.KV;

/**
 * The aggregate of a join's window: every record of it, with the number of its side ({@link
 * MergeMatchesFn#LEFT_SIDE} or {@link MergeMatchesFn#RIGHT_SIDE}), so that {@link MergeMatchesFn}
 * can join a pane. Shared by the live and the replayed join.
 */
public final class CollectRecordsFn
    extends CombineFn<KV<Integer, Event>, List<KV<Integer, Event>>, List<KV<Integer, Event>>> {

  /** The coder of the records of a window. */
  public static final Coder<List<KV<Integer, Event>>> CODER =
      ListCoder.of(KvCoder.of(VarIntCoder.of(), Event.Coder.of()));

  @Override
  public List<KV<Integer, Event>> createAccumulator() {
    return new ArrayList<>();
  }

  @Override
  public List<KV<Integer, Event>> addInput(
      List<KV<Integer, Event>> records, KV<Integer, Event> record) {
    records.add(record);
    return records;
  }

  @Override
  public List<KV<Integer, Event>> mergeAccumulators(
      Iterable<List<KV<Integer, Event>>> accumulators) {
    List<KV<Integer, Event>> merged = new ArrayList<>();
    accumulators.forEach(merged::addAll);
    return merged;
  }

  @Override
  public List<KV<Integer, Event>> extractOutput(List<KV<Integer, Event>> records) {
    // A pane must not change when later records are added to the same accumulator.
    return new ArrayList<>(records);
  }

  @Override
  public Coder<List<KV<Integer, Event>>> getAccumulatorCoder(
      CoderRegistry registry, Coder<KV<Integer, Event>> inputCoder)
      throws CannotProvideCoderException {
    return CODER;
  }
}
