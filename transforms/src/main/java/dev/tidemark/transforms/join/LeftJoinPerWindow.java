package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.windowing.AggregatePerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Left-joins two event streams on their key within {@link EventTimeWindowing}'s windows: every left
 * record is emitted once in each pane of its window, merged with the newest right record of the
 * same key and window, or with none. The windows tumble: a join over sliding or cumulating windows
 * is refused when the transform is made.
 *
 * <pre>{@code
 * PCollectionTuple joined =
 *     PCollectionTuple.of(LeftJoinPerWindow.LEFT, orders)
 *         .and(LeftJoinPerWindow.RIGHT, coupons)
 *         .apply(LeftJoinPerWindow.of(windowing, CopyJsonField.from("receiveUserId")
 *             .into("orderSalesmanId")));
 * }</pre>
 *
 * <p>"Newest" is the latest event time (ties broken by the text), so a left record is never
 * multiplied by several matches, which a relational join (and Beam's join library) would do.
 *
 * <p>The join is an {@link AggregatePerWindow} whose aggregate is every record of the window with
 * its side ({@link CollectRecordsFn}): the same pane step, pane rules and late decision as a count,
 * judged by the lower of the two inputs' watermarks where both meet. So a record of either side is
 * in exactly one place: the final pane of its window, or {@link #LATE_LEFT} / {@link #LATE_RIGHT},
 * and a window that expired before a restore stays expired after it. When one side is quiet and
 * holds the watermark, the idle flush emits an EARLY pane with what has arrived. The joined records
 * are in the global window; each carries its window and pane, and a consumer keeps the latest pane
 * per window.
 *
 * <p>{@link #ofSides} joins two sides as their sources give them ({@link JoinSide}): a side that a
 * batching source reads is parsed where its batches are gathered, with no step of its own before
 * the shuffle, so on Flink a backlog on that side does not hold the join's watermark back.
 */
public final class LeftJoinPerWindow extends PTransform<PCollectionTuple, PCollectionTuple> {

  /** Input: the records that are all kept. */
  public static final TupleTag<Event> LEFT = new TupleTag<Event>() {};

  /** Input: the records that are looked up. */
  public static final TupleTag<Event> RIGHT = new TupleTag<Event>() {};

  /** Output: one per left record and pane. */
  public static final TupleTag<JoinedRecord> JOINED = new TupleTag<JoinedRecord>() {};

  /** Output: left records that came after their window expired. */
  public static final TupleTag<Expired<Event>> LATE_LEFT = new TupleTag<Expired<Event>>() {};

  /** Output: right records that came after their window expired. */
  public static final TupleTag<Expired<Event>> LATE_RIGHT = new TupleTag<Expired<Event>>() {};

  /**
   * Output of {@link #ofSides} when a side is batches: the records that its parser had no event
   * for.
   */
  public static final TupleTag<DeadLetter> REJECTED = new TupleTag<DeadLetter>() {};

  private final EventTimeWindowing windowing;
  private final MergeRecords merge;

  private LeftJoinPerWindow(EventTimeWindowing windowing, MergeRecords merge) {
    this.windowing = windowing.requireTumbling("LeftJoinPerWindow");
    this.merge = merge;
  }

  public static LeftJoinPerWindow of(EventTimeWindowing windowing, MergeRecords merge) {
    return new LeftJoinPerWindow(windowing, merge);
  }

  /**
   * The same join of two sides as their sources give them ({@link JoinSide}): its outputs are this
   * transform's, plus {@link #REJECTED}.
   */
  public static PTransform<PBegin, PCollectionTuple> ofSides(
      EventTimeWindowing windowing, MergeRecords merge, JoinSide left, JoinSide right) {
    windowing.requireTumbling("LeftJoinPerWindow");
    return new PTransform<PBegin, PCollectionTuple>() {
      @Override
      public PCollectionTuple expand(PBegin begin) {
        return join(begin, windowing, merge, left, right);
      }
    };
  }

  @Override
  public PCollectionTuple expand(PCollectionTuple input) {
    return join(
        input.getPipeline().begin(),
        windowing,
        merge,
        JoinSide.events(input.get(LEFT)),
        JoinSide.events(input.get(RIGHT)));
  }

  private static PCollectionTuple join(
      PBegin begin,
      EventTimeWindowing windowing,
      MergeRecords merge,
      JoinSide left,
      JoinSide right) {
    AggregatePerWindow<EventKey, KV<Integer, Event>, List<KV<Integer, Event>>> collect =
        AggregatePerWindow.of(windowing, new CollectRecordsFn());
    PCollectionTuple decided =
        begin.apply(
            "DecidePanes",
            collect.ofInputs(
                List.of(
                    left.input("Left", MergeMatchesFn.LEFT_SIDE),
                    right.input("Right", MergeMatchesFn.RIGHT_SIDE)),
                JoinSide.SIDED_CODER,
                REJECTED,
                DeadLetter.Coder.of()));
    PCollection<JoinedRecord> joined =
        decided.get(collect.panes()).apply("MergeMatches", ParDo.of(new MergeMatchesFn(merge)));
    PCollectionTuple late =
        decided
            .get(collect.expired())
            .apply(
                "LateBySide",
                ParDo.of(new LateBySideFn())
                    .withOutputTags(LATE_LEFT, TupleTagList.of(LATE_RIGHT)));
    PCollectionTuple outputs =
        PCollectionTuple.of(JOINED, joined)
            .and(LATE_LEFT, late.get(LATE_LEFT).setCoder(Expired.ExpiredCoder.of(Event.Coder.of())))
            .and(
                LATE_RIGHT,
                late.get(LATE_RIGHT).setCoder(Expired.ExpiredCoder.of(Event.Coder.of())));
    return decided.has(REJECTED) ? outputs.and(REJECTED, decided.get(REJECTED)) : outputs;
  }

  /** Each expired record as a {@code Expired<Event>}, under the tag of its side. */
  private static final class LateBySideFn
      extends DoFn<KV<EventKey, Expired<KV<Integer, Event>>>, Expired<Event>> {

    @ProcessElement
    public void processElement(
        @Element KV<EventKey, Expired<KV<Integer, Event>>> element, MultiOutputReceiver out) {
      Expired<KV<Integer, Event>> expired = element.getValue();
      KV<Integer, Event> sided = expired.value();
      out.get(sided.getKey() == MergeMatchesFn.LEFT_SIDE ? LATE_LEFT : LATE_RIGHT)
          .output(
              new Expired<>(
                  sided.getValue(), expired.eventTime(), expired.window(), expired.watermark()));
    }
  }
}
