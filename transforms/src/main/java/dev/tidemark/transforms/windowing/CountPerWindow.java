package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.model.WindowResult;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Counts events, and sums their values, per key in {@link EventTimeWindowing}'s windows, with late
 * events captured instead of dropped.
 *
 * <pre>{@code
 * PCollectionTuple counted = events.apply(CountPerWindow.of(windowing));
 * counted.get(CountPerWindow.RESULTS); // one WindowResult per pane
 * counted.get(CountPerWindow.LATE);    // events that came after their window had expired
 * }</pre>
 *
 * <p>For every input event, exactly one of: it is counted in its window's final pane, or it is in
 * {@link #LATE}. See {@link CaptureLateData} for why.
 */
public final class CountPerWindow extends PTransform<PCollection<Event>, PCollectionTuple> {

  /** One pane of one key's count and sum in one window. */
  public static final TupleTag<WindowResult> RESULTS = new TupleTag<WindowResult>() {};

  /** Events that arrived after their window had expired. */
  public static final TupleTag<LateRecord> LATE = CaptureLateData.LATE;

  private final EventTimeWindowing windowing;

  private CountPerWindow(EventTimeWindowing windowing) {
    this.windowing = windowing;
  }

  public static CountPerWindow of(EventTimeWindowing windowing) {
    return new CountPerWindow(windowing);
  }

  @Override
  public PCollectionTuple expand(PCollection<Event> events) {
    PCollectionTuple captured = events.apply("CaptureLateData", CaptureLateData.of(windowing));
    PCollection<WindowResult> results =
        captured
            .get(CaptureLateData.ACCEPTED)
            .apply("Window", windowing.<Event>windowInto())
            .apply(
                "ToCountAndSum",
                MapElements.into(
                        TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                    .via(event -> KV.of(event.key(), event.value())))
            .apply("AddUp", Combine.perKey(CountAndSumFn.<Long>summing(value -> value)))
            .apply("ToWindowResult", ParDo.of(new ToWindowResultFn()));
    return PCollectionTuple.of(RESULTS, results).and(LATE, captured.get(CaptureLateData.LATE));
  }

  /** Attaches the window and the pane to each aggregate. */
  private static final class ToWindowResultFn
      extends DoFn<KV<String, KV<Long, Long>>, WindowResult> {
    @ProcessElement
    public void processElement(
        @Element KV<String, KV<Long, Long>> aggregate,
        BoundedWindow window,
        PaneInfo pane,
        OutputReceiver<WindowResult> out) {
      // An empty pane carries nothing: every pane of a window with data counts at least one
      // event. On the FlinkRunner, FIRE_ALWAYS produced a second, empty final pane for windows
      // whose final pane had already fired; a consumer keeping the latest pane would read 0.
      if (aggregate.getValue().getKey() == 0) {
        return;
      }
      out.output(
          new WindowResult(
              aggregate.getKey(),
              WindowPane.of((IntervalWindow) window, pane),
              aggregate.getValue().getKey(),
              aggregate.getValue().getValue()));
    }
  }
}
