package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountAndSumFn;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.List;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * A recording counted per key and window with the replay's rules ({@link ReplayPanesFn}): the
 * replayed counterpart of {@link CountPerWindow}, with the same output tags plus {@link
 * ParseEvents#DEAD_LETTER}. Made by {@link Replay#countPerWindow}.
 */
public final class CountReplayPerWindow extends PTransform<PBegin, PCollectionTuple> {

  private final Replay replay;
  private final EventTimeWindowing windowing;

  CountReplayPerWindow(Replay replay, EventTimeWindowing windowing) {
    this.replay = replay;
    this.windowing = windowing;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    ReplayPanes<KV<Long, Long>, KV<Long, Long>> decide =
        new ReplayPanes<>(
            List.of(KV.of("", replay)),
            windowing,
            CountAndSumFn.summing(record -> record.getValue().value()),
            CountAndSumFn.CODER);
    PCollectionTuple decided = begin.apply("CountPanes", decide);
    PCollection<WindowResult> results =
        decided
            .get(decide.panes)
            .apply(
                "ToWindowResult",
                MapElements.into(TypeDescriptor.of(WindowResult.class))
                    .via(
                        pane ->
                            new WindowResult(
                                pane.getKey(),
                                pane.getValue().getKey(),
                                pane.getValue().getValue().getKey(),
                                pane.getValue().getValue().getValue())));
    return PCollectionTuple.of(CountPerWindow.RESULTS, results)
        .and(CountPerWindow.LATE, decided.get(decide.late).apply("LateRecords", Values.create()))
        .and(ParseEvents.DEAD_LETTER, decided.get(decide.deadLetters));
  }
}
