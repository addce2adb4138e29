package dev.tidemark.sql;

import dev.tidemark.transforms.model.ColumnValuesCoder;
import dev.tidemark.transforms.model.Event;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.CombineFns;
import org.apache.beam.sdk.transforms.CombineFns.CoCombineResult;
import org.apache.beam.sdk.transforms.CombineFns.ComposedCombineFn;
import org.apache.beam.sdk.transforms.SimpleFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A query's aggregate calls over the events of one key and window, all at once: Beam's {@link
 * CombineFns#compose()} of Beam SQL's {@code CombineFn}s, each fed its argument from {@code
 * Event.columns()}. The output is the calls' values in the query's order.
 */
final class AggregateColumnsFn extends CombineFn<Event, Object[], List<@Nullable Object>> {

  private static final long serialVersionUID = 1L;

  private final ComposedCombineFn<Event> composed;
  private final List<TupleTag<Object>> outputs;

  private AggregateColumnsFn(ComposedCombineFn<Event> composed, List<TupleTag<Object>> outputs) {
    this.composed = composed;
    this.outputs = outputs;
  }

  static AggregateColumnsFn of(List<Aggregation> aggregations) {
    ComposedCombineFn<Event> composed = null;
    List<TupleTag<Object>> outputs = new ArrayList<>();
    for (Aggregation aggregation : aggregations) {
      TupleTag<Object> output = new TupleTag<>("aggregate" + outputs.size());
      outputs.add(output);
      SimpleFunction<Event, @Nullable Object> argument =
          aggregation.ordered()
              ? new OrderedArgument(aggregation.argumentSlot(), aggregation.separatorSlot())
              : new Argument(aggregation.argumentSlot());
      Coder<Object> argumentCoder = argumentCoder(aggregation);
      composed =
          composed == null
              ? CombineFns.compose().with(argument, argumentCoder, aggregation.combineFn(), output)
              : composed.with(argument, argumentCoder, aggregation.combineFn(), output);
    }
    if (composed == null) {
      throw new IllegalArgumentException("a query without an aggregate call has no aggregate");
    }
    return new AggregateColumnsFn(composed, outputs);
  }

  @SuppressWarnings("unchecked")
  private static Coder<Object> argumentCoder(Aggregation aggregation) {
    ColumnType type = aggregation.argumentType();
    Coder<?> value = type == null ? BooleanCoder.of() : type.coder();
    Coder<?> coder = NullableCoder.of(value);
    if (aggregation.ordered()) {
      coder = KvCoder.of(VarLongCoder.of(), ListCoder.of(coder));
    }
    return (Coder<Object>) coder;
  }

  @Override
  public Object[] createAccumulator() {
    return composed.createAccumulator();
  }

  @Override
  public Object[] addInput(Object[] accumulator, Event event) {
    return composed.addInput(accumulator, event);
  }

  @Override
  public Object[] mergeAccumulators(Iterable<Object[]> accumulators) {
    return composed.mergeAccumulators(accumulators);
  }

  @Override
  public List<@Nullable Object> extractOutput(Object[] accumulator) {
    CoCombineResult result = composed.extractOutput(accumulator);
    List<@Nullable Object> values = new ArrayList<>(outputs.size());
    for (TupleTag<Object> output : outputs) {
      values.add(result.get(output));
    }
    return values;
  }

  @Override
  public Coder<Object[]> getAccumulatorCoder(CoderRegistry registry, Coder<Event> inputCoder)
      throws CannotProvideCoderException {
    return composed.getAccumulatorCoder(registry, inputCoder);
  }

  @Override
  public Coder<List<@Nullable Object>> getDefaultOutputCoder(
      CoderRegistry registry, Coder<Event> inputCoder) {
    return ColumnValuesCoder.of();
  }

  /**
   * The argument of one aggregate call in an event: its column value, which may be null and is then
   * skipped; for {@code COUNT(*)}, which has none, {@code true}, so every row counts.
   */
  private static final class Argument extends SimpleFunction<Event, @Nullable Object> {
    private static final long serialVersionUID = 1L;
    private final int slot;

    Argument(int slot) {
      this.slot = slot;
    }

    @Override
    public @Nullable Object apply(Event event) {
      if (slot < 0) {
        return Boolean.TRUE;
      }
      // A record that WHERE filtered out has no arguments; its key is in no result.
      return slot < event.columns().size() ? event.columns().get(slot) : null;
    }
  }

  /**
   * The argument of {@code FIRST_VALUE}, {@code LAST_VALUE} or {@code LISTAGG} in an event: its
   * value (and {@code LISTAGG}'s separator), with the event's place in the order records arrived
   * ({@link #arrivalOf}).
   */
  private static final class OrderedArgument extends SimpleFunction<Event, @Nullable Object> {
    private static final long serialVersionUID = 1L;
    private final int slot;
    private final int separatorSlot;

    OrderedArgument(int slot, int separatorSlot) {
      this.slot = slot;
      this.separatorSlot = separatorSlot;
    }

    @Override
    public @Nullable Object apply(Event event) {
      List<@Nullable Object> columns = event.columns();
      List<@Nullable Object> values = new ArrayList<>(2);
      values.add(slot < columns.size() ? columns.get(slot) : null);
      if (separatorSlot >= 0) {
        values.add(separatorSlot < columns.size() ? columns.get(separatorSlot) : null);
      }
      return KV.of(arrivalOf(event), values);
    }
  }

  /**
   * {@code event}'s place in the order records arrived: its line in a recording, else its offset in
   * its Kafka partition, else its event time.
   */
  static long arrivalOf(Event event) {
    if (event.position() != Event.UNKNOWN_POSITION) {
      return event.position();
    }
    return event.source() != null ? event.source().offset() : event.eventTime().getMillis();
  }
}
