package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.joda.time.Duration;

/**
 * The late capture of the specification the pane engine is held to ({@link PresetCountPerWindow}):
 * routes every event whose window has expired to a {@link #LATE} output instead of letting the
 * GroupByKey after it drop it silently; passes every other event on, in the global window, for
 * {@link BeamTrigger#windowInto} and a GroupByKey. Tumbling windows only.
 *
 * <h2>Why it is exact</h2>
 *
 * <p>Beam drops a late element in the GroupByKey when {@code expiresAt(window) < inputWatermark},
 * and only counts it ({@code droppedDueToLateness}). This step makes the same test, with the same
 * {@link EventTimeWindowing}, against its own input watermark, which a stateful DoFn reads exactly
 * from an event-time timer ({@code Timer.getCurrentRelativeTime()}). An event it passes has {@code
 * expiresAt(window) >= W}, where W is this step's input watermark at that moment. This step's
 * output watermark never exceeds its input watermark, and the GroupByKey downstream sees the event
 * before any later watermark of this step: on Flink because elements and watermarks travel in order
 * on each channel, on the DirectRunner because an element pending for a step holds that step's
 * watermark (tests race a fast source against this on both runners; Beam's drop counter stays 0).
 * So when the GroupByKey gets the event its input watermark is at most W, and the event is not
 * dropped. An event this step routes to {@link #LATE} had its window expired under W, and the
 * GroupByKey would have dropped it. Hence every event ends in exactly one place: a window's final
 * pane or the late output.
 *
 * <p>This is the rule for live sources. A recording is replayed with its own rules, decided by the
 * watermark each record met at its source ({@code dev.tidemark.transforms.replay.Replay}).
 *
 * <p>The step runs in the global window on purpose: a stateful DoFn over the target windows would
 * itself drop expired elements before its code saw them. It keeps no state; the timer is never set,
 * it only lends its view of the watermark. It shuffles by key, once more than the GroupByKey.
 */
public final class CaptureLateData extends PTransform<PCollection<Event>, PCollectionTuple> {

  /** Events whose window has not expired, in the global window with their own timestamps. */
  public static final TupleTag<Event> ACCEPTED = new TupleTag<Event>() {};

  /** Events whose window had expired when they arrived, with that window and the watermark. */
  public static final TupleTag<Expired<Event>> LATE = new TupleTag<Expired<Event>>() {};

  private final EventTimeWindowing windowing;

  private CaptureLateData(EventTimeWindowing windowing) {
    this.windowing = windowing;
  }

  /**
   * Captures what would be too late for {@code windowing}, whose windows must tumble: a record of
   * sliding or session windows is in several windows, or in one that merges, and only the pane
   * engine judges each.
   */
  public static CaptureLateData of(EventTimeWindowing windowing) {
    return new CaptureLateData(windowing.requireTumbling("CaptureLateData"));
  }

  @Override
  public PCollectionTuple expand(PCollection<Event> events) {
    PCollectionTuple routed =
        events
            .apply(
                "IntoGlobalWindow",
                Window.<Event>into(new GlobalWindows())
                    .triggering(DefaultTrigger.of())
                    .withAllowedLateness(Duration.ZERO)
                    .discardingFiredPanes())
            .apply(
                "KeyByKey", WithKeys.of(Event::key).withKeyType(TypeDescriptor.of(EventKey.class)))
            .apply(
                "RouteLateEvents",
                ParDo.of(new CaptureLateDataFn(windowing))
                    .withOutputTags(ACCEPTED, TupleTagList.of(LATE)));
    return routed;
  }
}
