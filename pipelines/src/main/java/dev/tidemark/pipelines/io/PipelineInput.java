package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.io.LineShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a pipeline reads: the bundled sample {@code sample:} stands for, and the format {@code
 * generator:} writes. Every bundled sample is named here, so {@code sample:NAME} can list them.
 */
public enum PipelineInput {
  /** {@code count}: S1's {@code key,epochMillis}, with out-of-order, late and malformed lines. */
  COUNT("count.csv", LineShape.CSV),
  /** {@code metrics}: S5's statistics records. */
  METRICS("stats.json", LineShape.S5_STATS),
  /** {@code join}'s left side: S4's orders. */
  ORDERS("orders.json", LineShape.S4_ORDERS),
  /** {@code join}'s right side: S4's coupons. */
  COUPONS("coupons.json", LineShape.S4_COUPONS);

  /**
   * S2's orders, for {@code count --format=json}: a bundled sample no pipeline reads by default.
   */
  public static final String S2_ORDERS = "s2-orders.json";

  private final String sample;
  private final LineShape generated;

  PipelineInput(String sample, LineShape generated) {
    this.sample = sample;
    this.generated = generated;
  }

  public String sample() {
    return sample;
  }

  public LineShape generated() {
    return generated;
  }

  /** Every bundled sample, by the name {@code sample:NAME} takes. */
  static List<String> samples() {
    List<String> names =
        new ArrayList<>(Arrays.stream(values()).map(PipelineInput::sample).toList());
    names.add(S2_ORDERS);
    return names;
  }
}
