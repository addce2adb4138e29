package dev.tidemark.sql;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code LISTAGG(x [, separator])} as Flink SQL defines it: the values of {@code x} that are not
 * {@code NULL}, in the order the records arrived, joined by the separator ({@code ','} by default);
 * {@code NULL} when there are none. It keeps every value of the window with its record's place in
 * that order ({@link AggregateColumnsFn}), as a list of them must.
 */
final class ListAggFn
    extends CombineFn<
        KV<Long, List<@Nullable Object>>,
        KV<@Nullable String, List<KV<Long, String>>>,
        @Nullable Object> {

  private static final long serialVersionUID = 1L;

  private static final String DEFAULT_SEPARATOR = ",";

  @Override
  public KV<@Nullable String, List<KV<Long, String>>> createAccumulator() {
    return KV.of(null, new ArrayList<>());
  }

  @Override
  public KV<@Nullable String, List<KV<Long, String>>> addInput(
      KV<@Nullable String, List<KV<Long, String>>> values, KV<Long, List<@Nullable Object>> input) {
    List<@Nullable Object> arguments = input.getValue();
    Object value = arguments.get(0);
    if (value == null) {
      return values;
    }
    values.getValue().add(KV.of(input.getKey(), value.toString()));
    String separator = arguments.size() > 1 ? (String) arguments.get(1) : DEFAULT_SEPARATOR;
    return KV.of(separator, values.getValue());
  }

  @Override
  public KV<@Nullable String, List<KV<Long, String>>> mergeAccumulators(
      Iterable<KV<@Nullable String, List<KV<Long, String>>>> accumulators) {
    String separator = null;
    List<KV<Long, String>> all = new ArrayList<>();
    for (KV<@Nullable String, List<KV<Long, String>>> accumulator : accumulators) {
      separator = accumulator.getKey() != null ? accumulator.getKey() : separator;
      all.addAll(accumulator.getValue());
    }
    return KV.of(separator, all);
  }

  @Override
  public @Nullable Object extractOutput(KV<@Nullable String, List<KV<Long, String>>> values) {
    if (values.getValue().isEmpty()) {
      return null;
    }
    return values.getValue().stream()
        .sorted(Comparator.comparing(KV::getKey))
        .map(KV::getValue)
        .collect(Collectors.joining(values.getKey() == null ? "" : values.getKey()));
  }

  @Override
  public Coder<KV<@Nullable String, List<KV<Long, String>>>> getAccumulatorCoder(
      CoderRegistry registry, Coder<KV<Long, List<@Nullable Object>>> inputCoder) {
    return KvCoder.of(
        NullableCoder.of(StringUtf8Coder.of()),
        ListCoder.of(KvCoder.of(VarLongCoder.of(), StringUtf8Coder.of())));
  }
}
