package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.windowing.CaptureLateData;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Left-joins two event streams on their key within {@link EventTimeWindowing}'s windows: every left
 * record is emitted once in each pane of its window, merged with the newest right record of the
 * same key and window, or with none.
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
 * multiplied by several matches, which a relational join (and Beam's join library) would do. Both
 * inputs pass {@link CaptureLateData} first, so a record of either side that comes after its window
 * expired goes to {@link #LATE_LEFT} or {@link #LATE_RIGHT} instead of vanishing. The join fires on
 * the lower of the two watermarks; when one side is quiet and holds it, the preset's idle flush
 * still emits an EARLY pane with what has arrived. A consumer keeps the latest pane per window.
 */
public final class LeftJoinPerWindow extends PTransform<PCollectionTuple, PCollectionTuple> {

  /** Input: the records that are all kept. */
  public static final TupleTag<Event> LEFT = new TupleTag<Event>() {};

  /** Input: the records that are looked up. */
  public static final TupleTag<Event> RIGHT = new TupleTag<Event>() {};

  /** Output: one per left record and pane. */
  public static final TupleTag<JoinedRecord> JOINED = new TupleTag<JoinedRecord>() {};

  /** Output: left records that came after their window expired. */
  public static final TupleTag<LateRecord> LATE_LEFT = new TupleTag<LateRecord>() {};

  /** Output: right records that came after their window expired. */
  public static final TupleTag<LateRecord> LATE_RIGHT = new TupleTag<LateRecord>() {};

  private final EventTimeWindowing windowing;
  private final MergeRecords merge;

  private LeftJoinPerWindow(EventTimeWindowing windowing, MergeRecords merge) {
    this.windowing = windowing;
    this.merge = merge;
  }

  public static LeftJoinPerWindow of(EventTimeWindowing windowing, MergeRecords merge) {
    return new LeftJoinPerWindow(windowing, merge);
  }

  @Override
  public PCollectionTuple expand(PCollectionTuple input) {
    PCollectionTuple left = input.get(LEFT).apply("CaptureLateLeft", CaptureLateData.of(windowing));
    PCollectionTuple right =
        input.get(RIGHT).apply("CaptureLateRight", CaptureLateData.of(windowing));
    TupleTag<Event> leftTag = new TupleTag<>();
    TupleTag<Event> rightTag = new TupleTag<>();
    PCollection<JoinedRecord> joined =
        KeyedPCollectionTuple.of(leftTag, windowAndKey("Left", left))
            .and(rightTag, windowAndKey("Right", right))
            .apply("CoGroupByKey", CoGroupByKey.create())
            .apply("MergeMatches", ParDo.of(new MergeMatchesFn(leftTag, rightTag, merge)));
    return PCollectionTuple.of(JOINED, joined)
        .and(LATE_LEFT, left.get(CaptureLateData.LATE))
        .and(LATE_RIGHT, right.get(CaptureLateData.LATE));
  }

  private PCollection<KV<EventKey, Event>> windowAndKey(String side, PCollectionTuple captured) {
    return captured
        .get(CaptureLateData.ACCEPTED)
        .apply("Window" + side, windowing.<Event>windowInto())
        .apply(
            "Key" + side, WithKeys.of(Event::key).withKeyType(TypeDescriptor.of(EventKey.class)));
  }

  /** Emits each left record of a pane with the newest right record, or none. */
  private static final class MergeMatchesFn extends DoFn<KV<EventKey, CoGbkResult>, JoinedRecord> {
    private final TupleTag<Event> leftTag;
    private final TupleTag<Event> rightTag;
    private final MergeRecords merge;

    MergeMatchesFn(TupleTag<Event> leftTag, TupleTag<Event> rightTag, MergeRecords merge) {
      this.leftTag = leftTag;
      this.rightTag = rightTag;
      this.merge = merge;
    }

    @ProcessElement
    public void processElement(
        @Element KV<EventKey, CoGbkResult> grouped,
        BoundedWindow window,
        PaneInfo pane,
        OutputReceiver<JoinedRecord> out) {
      NewestMatch.join(
          grouped.getKey().text(),
          WindowPane.of((IntervalWindow) window, pane),
          grouped.getValue().getAll(leftTag),
          grouped.getValue().getAll(rightTag),
          merge,
          out::output);
    }
  }
}
