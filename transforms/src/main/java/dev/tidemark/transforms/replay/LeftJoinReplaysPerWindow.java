package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.join.CollectRecordsFn;
import dev.tidemark.transforms.join.JoinedRecord;
import dev.tidemark.transforms.join.LeftJoinPerWindow;
import dev.tidemark.transforms.join.MergeMatchesFn;
import dev.tidemark.transforms.join.MergeRecords;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * Two recordings left-joined per key and window with the replay's rules ({@link ReplayPanesFn}):
 * the replayed counterpart of {@link LeftJoinPerWindow}, with its output tags plus {@link
 * ParseEvents#DEAD_LETTER}. Each record's lateness is decided by the watermark its own recording
 * had when it read it; late records of both sides within the lateness are ordered by that
 * watermark, then left before right, then by line. Made by {@link Replay#leftJoin}.
 */
public final class LeftJoinReplaysPerWindow extends PTransform<PBegin, PCollectionTuple> {

  private final Replay left;
  private final Replay right;
  private final EventTimeWindowing windowing;
  private final MergeRecords merge;

  LeftJoinReplaysPerWindow(
      Replay left, Replay right, EventTimeWindowing windowing, MergeRecords merge) {
    this.left = left;
    this.right = right;
    this.windowing = windowing.requireTumbling("a replayed join");
    this.merge = merge;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    ReplayPanes<
            EventKey,
            KV<Integer, Event>,
            KV<Integer, Expired<Event>>,
            List<KV<Integer, Event>>,
            List<KV<Integer, Event>>,
            KV<EventKey, KV<WindowPane, List<KV<Integer, Event>>>>>
        decide =
            ReplayPanes.ofEvents(
                // Each recording's place in the list is the side number of its records.
                List.of(KV.of("Left", left), KV.of("Right", right)),
                windowing,
                new CollectRecordsFn(),
                PaneFormat.keyed(),
                KvCoder.of(
                    EventKey.Coder.of(),
                    KvCoder.of(WindowPane.Coder.of(), CollectRecordsFn.CODER)));
    PCollectionTuple decided = begin.apply("JoinPanes", decide);
    PCollection<JoinedRecord> joined =
        decided.get(decide.panes).apply("MergeMatches", ParDo.of(new MergeMatchesFn(merge)));
    PCollection<KV<Integer, Expired<Event>>> late = decided.get(decide.late);
    return PCollectionTuple.of(LeftJoinPerWindow.JOINED, joined)
        .and(LeftJoinPerWindow.LATE_LEFT, lateOf("Left", MergeMatchesFn.LEFT_SIDE, late))
        .and(LeftJoinPerWindow.LATE_RIGHT, lateOf("Right", MergeMatchesFn.RIGHT_SIDE, late))
        .and(ParseEvents.DEAD_LETTER, decided.get(decide.deadLetters));
  }

  private static PCollection<Expired<Event>> lateOf(
      String side, int input, PCollection<KV<Integer, Expired<Event>>> late) {
    return late.apply("Late" + side, Filter.by(record -> record.getKey() == input))
        .apply("LateRecords" + side, Values.create());
  }
}
