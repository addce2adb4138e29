package dev.tidemark.transforms.windowing;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.util.CoderUtils;

/**
 * Merges the accumulators of a window's slices, which a pane step keeps in state and reads again
 * for the window's neighbours. Beam allows {@code mergeAccumulators} to change any accumulator it
 * is given (its own {@code Max} changes the first), so it is given copies, made with the
 * accumulator's coder.
 */
public final class Accumulators {

  private Accumulators() {}

  /** The merge of copies of {@code kept}; an empty accumulator when there are none. */
  public static <AccumT> AccumT mergeCopies(
      CombineFn<?, AccumT, ?> aggregate, Coder<AccumT> coder, List<AccumT> kept) {
    if (kept.isEmpty()) {
      return aggregate.createAccumulator();
    }
    List<AccumT> copies = new ArrayList<>(kept.size());
    for (AccumT accumulated : kept) {
      try {
        copies.add(CoderUtils.clone(coder, accumulated));
      } catch (CoderException e) {
        throw new IllegalStateException("the aggregate's coder cannot copy " + accumulated, e);
      }
    }
    return aggregate.mergeAccumulators(copies);
  }
}
