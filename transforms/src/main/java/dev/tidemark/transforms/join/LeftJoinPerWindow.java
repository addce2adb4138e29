package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.windowing.AggregatePerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SimpleFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

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

  private static final KvCoder<EventKey, KV<Integer, Event>> SIDED_CODER =
      KvCoder.of(EventKey.Coder.of(), KvCoder.of(VarIntCoder.of(), Event.Coder.of()));

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
    AggregatePerWindow<EventKey, KV<Integer, Event>, List<KV<Integer, Event>>> collect =
        AggregatePerWindow.of(windowing, new CollectRecordsFn());
    PCollectionTuple decided =
        PCollectionList.of(sided("Left", MergeMatchesFn.LEFT_SIDE, input.get(LEFT)))
            .and(sided("Right", MergeMatchesFn.RIGHT_SIDE, input.get(RIGHT)))
            .apply("BothSides", Flatten.pCollections())
            .apply("DecidePanes", collect);
    PCollection<JoinedRecord> joined =
        decided.get(collect.panes()).apply("MergeMatches", ParDo.of(new MergeMatchesFn(merge)));
    PCollectionTuple late =
        decided
            .get(collect.expired())
            .apply(
                "LateBySide",
                ParDo.of(new LateBySideFn())
                    .withOutputTags(LATE_LEFT, TupleTagList.of(LATE_RIGHT)));
    return PCollectionTuple.of(JOINED, joined)
        .and(LATE_LEFT, late.get(LATE_LEFT).setCoder(LateRecord.Coder.of()))
        .and(LATE_RIGHT, late.get(LATE_RIGHT).setCoder(LateRecord.Coder.of()));
  }

  /** {@code events} keyed by their key, each with the number of its side. */
  private static PCollection<KV<EventKey, KV<Integer, Event>>> sided(
      String name, int side, PCollection<Event> events) {
    return events
        .apply(
            "Key" + name,
            MapElements.via(
                new SimpleFunction<Event, KV<EventKey, KV<Integer, Event>>>() {
                  @Override
                  public KV<EventKey, KV<Integer, Event>> apply(Event event) {
                    return KV.of(event.key(), KV.of(side, event));
                  }
                }))
        .setCoder(SIDED_CODER);
  }

  /** Each expired record as a {@link LateRecord}, under the tag of its side. */
  private static final class LateBySideFn
      extends DoFn<KV<EventKey, Expired<KV<Integer, Event>>>, LateRecord> {

    @ProcessElement
    public void processElement(
        @Element KV<EventKey, Expired<KV<Integer, Event>>> element, MultiOutputReceiver out) {
      Expired<KV<Integer, Event>> expired = element.getValue();
      KV<Integer, Event> sided = expired.value();
      out.get(sided.getKey() == MergeMatchesFn.LEFT_SIDE ? LATE_LEFT : LATE_RIGHT)
          .output(LateRecord.of(sided.getValue(), expired.window(), expired.watermark()));
    }
  }
}
