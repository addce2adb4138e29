package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;

/**
 * A recording's events aggregated per key and window by any {@code CombineFn} of events, with the
 * replay's rules: {@code PANES}, {@code CountPerWindow.LATE} and {@code ParseEvents.DEAD_LETTER}.
 * {@link CountReplayPerWindow} is the count; a SQL query's aggregates are another.
 *
 * @param <OutputT> what a pane's aggregate is
 */
public final class AggregateReplayPerWindow<OutputT> extends PTransform<PBegin, PCollectionTuple> {

  private final TupleTag<KV<EventKey, KV<WindowPane, OutputT>>> panes = new TupleTag<>();
  private final Replay replay;
  private final EventTimeWindowing windowing;
  private final CombineFn<Event, ?, OutputT> aggregate;
  private final Coder<OutputT> outputCoder;

  AggregateReplayPerWindow(
      Replay replay,
      EventTimeWindowing windowing,
      CombineFn<Event, ?, OutputT> aggregate,
      Coder<OutputT> outputCoder) {
    this.replay = replay;
    this.windowing = windowing;
    this.aggregate = aggregate;
    this.outputCoder = outputCoder;
  }

  /** Each pane: the key, and the pane with the aggregate of its window so far. */
  public TupleTag<KV<EventKey, KV<WindowPane, OutputT>>> panes() {
    return panes;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    ReplayPanes<
            EventKey,
            KV<Integer, Event>,
            KV<Integer, Expired<Event>>,
            ?,
            OutputT,
            KV<EventKey, KV<WindowPane, OutputT>>>
        decide =
            ReplayPanes.ofEvents(
                List.of(KV.of("", replay)),
                windowing,
                new CombineValuesFn<>(aggregate, KV::getValue, Event.Coder.of()),
                PaneFormat.keyed(),
                KvCoder.of(EventKey.Coder.of(), KvCoder.of(WindowPane.Coder.of(), outputCoder)));
    PCollectionTuple decided = begin.apply("AggregatePanes", decide);
    return PCollectionTuple.of(panes, decided.get(decide.panes))
        .and(CountPerWindow.LATE, decided.get(decide.late).apply("LateRecords", Values.create()))
        .and(ParseEvents.DEAD_LETTER, decided.get(decide.deadLetters));
  }
}
