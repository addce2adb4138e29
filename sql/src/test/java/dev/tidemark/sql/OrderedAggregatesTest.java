package dev.tidemark.sql;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The aggregates whose answer depends on the order records arrived ({@code FIRST_VALUE}, {@code
 * LAST_VALUE}, {@code LISTAGG}) and on distinct values ({@code DISTINCT}) give the same answer
 * however a runner splits a window's values into accumulators, merges them, and codes them between
 * steps: each is fed the same values cut at random places, in shuffled parts, many times.
 */
class OrderedAggregatesTest {

  private static final Random RANDOM = new Random(17);

  /** Values 1 to 40 in arrival order, every 3rd {@code NULL}. */
  private static List<KV<Long, List<@Nullable Object>>> arrivals() {
    List<KV<Long, List<@Nullable Object>>> values = new ArrayList<>();
    for (long order = 1; order <= 40; order++) {
      values.add(KV.of(order, Arrays.asList(order % 3 == 0 ? null : "v" + order, "/")));
    }
    return values;
  }

  @Test
  void firstAndLastValueAreTheFirstAndLastThatAreNotNull() throws Exception {
    for (int trial = 0; trial < 50; trial++) {
      assertThat(split(OrderedValueFn.first(), arrivals()), equalTo("v1"));
      assertThat(split(OrderedValueFn.last(), arrivals()), equalTo("v40"));
    }
    assertThat(
        split(OrderedValueFn.first(), List.of(KV.of(1L, Arrays.asList((Object) null)))),
        nullValue());
  }

  @Test
  void listAggJoinsTheValuesThatAreNotNullInArrivalOrder() throws Exception {
    List<String> expected = new ArrayList<>();
    for (long order = 1; order <= 40; order++) {
      if (order % 3 != 0) {
        expected.add("v" + order);
      }
    }
    for (int trial = 0; trial < 50; trial++) {
      assertThat(split(new ListAggFn(), arrivals()), equalTo(String.join("/", expected)));
    }
    assertThat(
        split(new ListAggFn(), List.of(KV.of(1L, Arrays.asList((Object) "only")))),
        equalTo("only"));
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void distinctCountsAndSumsEachValueOnceAndSkipsNull() throws Exception {
    List<@Nullable Object> values = new ArrayList<>();
    for (long value = 0; value < 60; value++) {
      values.add(value % 7 == 0 ? null : value % 10);
    }
    DistinctFn count =
        new DistinctFn((CombineFn<Object, ?, Object>) (CombineFn<?, ?, ?>) Count.combineFn());
    DistinctFn sum =
        new DistinctFn((CombineFn<Object, ?, Object>) (CombineFn<?, ?, ?>) Sum.ofLongs());
    for (int trial = 0; trial < 50; trial++) {
      assertThat(splitDistinct(count, values), equalTo(10L));
      assertThat(splitDistinct(sum, values), equalTo(45L));
    }
  }

  /**
   * {@code fn} over {@code inputs} shuffled into 1 to 5 accumulators, each coded and decoded, then
   * merged in a random order. Arrival order is each input's key, so shuffling must not change it.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <A> @Nullable Object split(
      CombineFn<KV<Long, List<@Nullable Object>>, A, @Nullable Object> fn,
      List<KV<Long, List<@Nullable Object>>> inputs)
      throws Exception {
    List<KV<Long, List<@Nullable Object>>> shuffled = new ArrayList<>(inputs);
    Collections.shuffle(shuffled, RANDOM);
    KvCoder<Long, List<@Nullable Object>> inputCoder =
        KvCoder.of(VarLongCoder.of(), ListCoder.of(NullableCoder.of((Coder) StringUtf8Coder.of())));
    List<A> accumulators = new ArrayList<>();
    int parts = 1 + RANDOM.nextInt(5);
    for (int part = 0; part < parts; part++) {
      A accumulator = fn.createAccumulator();
      for (int at = part; at < shuffled.size(); at += parts) {
        accumulator = fn.addInput(accumulator, shuffled.get(at));
      }
      accumulators.add(CoderUtils.clone(fn.getAccumulatorCoder(null, inputCoder), accumulator));
    }
    Collections.shuffle(accumulators, RANDOM);
    return fn.extractOutput(fn.mergeAccumulators(accumulators));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static @Nullable Object splitDistinct(DistinctFn fn, List<@Nullable Object> inputs)
      throws Exception {
    List<@Nullable Object> shuffled = new ArrayList<>(inputs);
    Collections.shuffle(shuffled, RANDOM);
    List<Set<Object>> accumulators = new ArrayList<>();
    int parts = 1 + RANDOM.nextInt(5);
    for (int part = 0; part < parts; part++) {
      Set<Object> accumulator = fn.createAccumulator();
      for (int at = part; at < shuffled.size(); at += parts) {
        accumulator = fn.addInput(accumulator, shuffled.get(at));
      }
      accumulators.add(
          CoderUtils.clone(
              fn.getAccumulatorCoder(null, (Coder) NullableCoder.of(VarLongCoder.of())),
              accumulator));
    }
    return fn.extractOutput(fn.mergeAccumulators(accumulators));
  }
}
