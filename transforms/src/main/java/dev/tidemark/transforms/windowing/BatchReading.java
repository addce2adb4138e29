package dev.tidemark.transforms.windowing;

import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How the gathering step reads a batch's records: the parse of each, the key and value of what it
 * parsed to, and where rejected records go, declared as an output only with a coder.
 */
record BatchReading<RecordT, InputT, RejectT, K, V>(
    RecordParser<RecordT, InputT, RejectT> parser,
    SerializableFunction<InputT, K> keyOf,
    SerializableFunction<InputT, V> valueOf,
    TupleTag<RejectT> rejected,
    @Nullable Coder<RejectT> rejectCoder) {

  /** Records that are the values themselves: no parse ({@link GatherOnTimeFn#everyRecord}). */
  static <T, K, V> BatchReading<T, T, Void, K, V> unparsed(
      SerializableFunction<T, K> keyOf, SerializableFunction<T, V> valueOf) {
    return new BatchReading<>(GatherOnTimeFn.everyRecord(), keyOf, valueOf, new TupleTag<>(), null);
  }

  /** The gathering step's name: a parse in it says so. */
  String stepName() {
    return rejectCoder == null ? "GatherOnTime" : "ParseAndGather";
  }

  /** The step's outputs besides its contributions: the rejected records, if any can be. */
  TupleTagList rejectedOutputs() {
    return rejectCoder == null ? TupleTagList.empty() : TupleTagList.of(rejected);
  }
}
