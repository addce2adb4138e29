package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountAndSumFn;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.List;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;

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
    ReplayPanes<
            EventKey,
            KV<Integer, Event>,
            KV<Integer, Expired<Event>>,
            KV<Long, Long>,
            KV<Long, Long>,
            WindowResult>
        decide =
            ReplayPanes.ofEvents(
                List.of(KV.of("", replay)),
                windowing,
                CountAndSumFn.summing(record -> record.getValue().value()),
                WindowResult::of,
                WindowResult.Coder.of());
    PCollectionTuple decided = begin.apply("CountPanes", decide);
    return PCollectionTuple.of(CountPerWindow.RESULTS, decided.get(decide.panes))
        .and(CountPerWindow.LATE, decided.get(decide.late).apply("LateRecords", Values.create()))
        .and(ParseEvents.DEAD_LETTER, decided.get(decide.deadLetters));
  }
}
