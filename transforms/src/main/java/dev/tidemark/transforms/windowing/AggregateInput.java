package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.SourceBatch;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;

/**
 * One input of {@link AggregatePerWindow#ofInputs}: values, each judged on its own, or batches of
 * raw records that the step which gathers them parses, as {@link
 * AggregatePerWindow#ofBatchesParsedBy} does for one input, so that no step between a batching
 * source and the shuffle holds the watermark back ({@link RecordParser} says why).
 *
 * @param <K> the key
 * @param <V> the value
 * @param <RejectT> what a record that a batch input's parser has no value for becomes
 */
public abstract class AggregateInput<K, V, RejectT> {

  private final String name;

  private AggregateInput(String name) {
    this.name = name;
  }

  /** Values, each judged on its own; {@code name} begins the names of the input's steps. */
  public static <K, V, RejectT> AggregateInput<K, V, RejectT> values(
      String name, PCollection<KV<K, V>> values) {
    return new AggregateInput<K, V, RejectT>(name) {
      @Override
      <AccumT, OutputT> PCollectionTuple gather(
          PaneStep<K, V, AccumT, OutputT> step,
          TupleTag<KV<K, Contribution<V, AccumT>>> gathered,
          TupleTag<RejectT> rejected,
          Coder<RejectT> rejectCoder) {
        return PCollectionTuple.of(gathered, step.oneByOne(name(), values));
      }
    };
  }

  /**
   * Batches of raw records, each parsed by {@code parser} where the batch is gathered, and keyed
   * and valued by {@code keyOf} and {@code valueOf}.
   */
  public static <RecordT, ParsedT, K, V, RejectT> AggregateInput<K, V, RejectT> batches(
      String name,
      PCollection<SourceBatch<RecordT>> batches,
      RecordParser<RecordT, ParsedT, RejectT> parser,
      SerializableFunction<ParsedT, K> keyOf,
      SerializableFunction<ParsedT, V> valueOf) {
    return new AggregateInput<K, V, RejectT>(name) {
      @Override
      <AccumT, OutputT> PCollectionTuple gather(
          PaneStep<K, V, AccumT, OutputT> step,
          TupleTag<KV<K, Contribution<V, AccumT>>> gathered,
          TupleTag<RejectT> rejected,
          Coder<RejectT> rejectCoder) {
        return step.gathered(
            name(),
            batches,
            new BatchReading<>(parser, keyOf, valueOf, rejected, rejectCoder),
            gathered);
      }
    };
  }

  String name() {
    return name;
  }

  /**
   * The input's contributions to {@code step} under {@code gathered}, and its rejected records, if
   * it can have any, under {@code rejected}.
   */
  abstract <AccumT, OutputT> PCollectionTuple gather(
      PaneStep<K, V, AccumT, OutputT> step,
      TupleTag<KV<K, Contribution<V, AccumT>>> gathered,
      TupleTag<RejectT> rejected,
      Coder<RejectT> rejectCoder);
}
