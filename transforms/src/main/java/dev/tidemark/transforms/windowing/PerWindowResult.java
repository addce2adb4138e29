package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.DeadLetter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.TupleTag;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Everything a per-window aggregation of your own records gives, in one value to apply inline and
 * pass on: {@link #panes()}, {@link #finalPanes()}, {@link #expired()} and {@link #deadLetters()}.
 * Every record is in exactly one place: the final pane of its window, {@link #expired()}, or {@link
 * #deadLetters()}.
 *
 * <pre>{@code
 * PerWindowResult<String, Click, PageStats> stats =
 *     clicksByPage.apply(AggregatePerWindow.intoResult(windowing, new PageStatsFn()))
 *         .withDeadLetters(parsed.failures());
 * stats.finalPanes();  // one KeyedPane per page and window, with its whole value
 * stats.expired();     // KeyedExpired(page, Expired(click, event time, window, watermark))
 * }</pre>
 *
 * @param <K> the key
 * @param <V> what is aggregated
 * @param <OutputT> what a pane carries
 */
public final class PerWindowResult<K, V, OutputT> implements POutput {

  private final PCollection<KeyedPane<K, OutputT>> panes;
  private final PCollection<KeyedExpired<K, V>> expired;
  private final PCollectionList<DeadLetter> deadLetterInputs;
  private @Nullable PCollection<KeyedPane<K, OutputT>> finalPanes;
  private @Nullable PCollection<DeadLetter> deadLetters;

  private PerWindowResult(
      PCollection<KeyedPane<K, OutputT>> panes,
      PCollection<KeyedExpired<K, V>> expired,
      PCollectionList<DeadLetter> deadLetterInputs) {
    this.panes = panes;
    this.expired = expired;
    this.deadLetterInputs = deadLetterInputs;
  }

  /** The outputs of a window step, with the dead letters of the steps before it, if any. */
  public static <K, V, OutputT> PerWindowResult<K, V, OutputT> of(
      PCollection<KeyedPane<K, OutputT>> panes,
      PCollection<KeyedExpired<K, V>> expired,
      PCollectionList<DeadLetter> deadLetters) {
    return new PerWindowResult<>(panes, expired, deadLetters);
  }

  /** This result with {@code more} dead letters: a parse step's {@code failures()}, say. */
  public PerWindowResult<K, V, OutputT> withDeadLetters(PCollection<DeadLetter> more) {
    return new PerWindowResult<>(panes, expired, deadLetterInputs.and(more));
  }

  /** Every pane of every key and window, as it is decided. */
  public PCollection<KeyedPane<K, OutputT>> panes() {
    return panes;
  }

  /**
   * The final pane of each key and window, which holds its whole value: what a test asserts or a
   * store keeps when it wants one row per window. Made when first asked for.
   */
  public PCollection<KeyedPane<K, OutputT>> finalPanes() {
    if (finalPanes == null) {
      finalPanes =
          panes.apply(
              "FinalPanesOf" + panes.getName(),
              Filter.by((KeyedPane<K, OutputT> p) -> p.isFinal() && !p.pane().isWithdrawn()));
    }
    return finalPanes;
  }

  /** Each value whose window had expired when it came, with its window and the watermark. */
  public PCollection<KeyedExpired<K, V>> expired() {
    return expired;
  }

  /** The records that could not be used, with the reason; none when no step gave any. */
  public PCollection<DeadLetter> deadLetters() {
    if (deadLetters == null) {
      deadLetters =
          deadLetterInputs.size() == 1
              ? deadLetterInputs.get(0)
              : deadLetterInputs.apply("DeadLettersOf" + panes.getName(), allDeadLetters());
    }
    return deadLetters;
  }

  /** The dead letters of every input, or none: the pipeline then has an empty collection. */
  private static PTransform<PCollectionList<DeadLetter>, PCollection<DeadLetter>> allDeadLetters() {
    return new PTransform<PCollectionList<DeadLetter>, PCollection<DeadLetter>>() {
      @Override
      public PCollection<DeadLetter> expand(PCollectionList<DeadLetter> inputs) {
        return inputs.size() == 0
            ? inputs.getPipeline().apply("None", Create.empty(DeadLetter.Coder.of()))
            : inputs.apply("Flatten", Flatten.pCollections());
      }
    };
  }

  @Override
  public Pipeline getPipeline() {
    return panes.getPipeline();
  }

  @Override
  public Map<TupleTag<?>, PValue> expand() {
    Map<TupleTag<?>, PValue> outputs = new LinkedHashMap<>();
    outputs.put(new TupleTag<KeyedPane<K, OutputT>>("panes"), panes);
    outputs.put(new TupleTag<KeyedExpired<K, V>>("expired"), expired);
    for (int i = 0; i < deadLetterInputs.size(); i++) {
      outputs.put(new TupleTag<DeadLetter>("deadLetters" + i), deadLetterInputs.get(i));
    }
    return outputs;
  }

  @Override
  public void finishSpecifyingOutput(
      String transformName, PInput input, PTransform<?, ?> transform) {}
}
