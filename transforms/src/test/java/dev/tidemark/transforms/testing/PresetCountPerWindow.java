package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.windowing.CountAndSumFn;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
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
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The specification of {@link CountPerWindow}: {@link CaptureLateData} then {@link
 * BeamTrigger#windowInto} and a {@code Combine.perKey}, with Beam's own trigger machinery deciding
 * the panes. Same input and output tags as {@link CountPerWindow}; its results stay in their
 * windows and panes, so a test can also use {@code PAssert}'s pane filters.
 */
public final class PresetCountPerWindow extends PTransform<PCollection<Event>, PCollectionTuple> {

  private final EventTimeWindowing windowing;

  private PresetCountPerWindow(EventTimeWindowing windowing) {
    this.windowing = windowing;
  }

  public static PresetCountPerWindow of(EventTimeWindowing windowing) {
    return new PresetCountPerWindow(windowing);
  }

  @Override
  public PCollectionTuple expand(PCollection<Event> events) {
    PCollectionTuple captured = events.apply("CaptureLateData", CaptureLateData.of(windowing));
    PCollection<WindowResult> results =
        captured
            .get(CaptureLateData.ACCEPTED)
            .apply("Window", BeamTrigger.<Event>windowInto(windowing))
            .apply(
                "ToCountAndSum",
                MapElements.into(
                        TypeDescriptors.kvs(
                            TypeDescriptor.of(EventKey.class), TypeDescriptors.longs()))
                    .via(event -> KV.of(event.key(), event.value())))
            .apply("AddUp", Combine.perKey(CountAndSumFn.<Long>summing(value -> value)))
            .apply("ToWindowResult", ParDo.of(new ToWindowResultFn()));
    return PCollectionTuple.of(CountPerWindow.RESULTS, results)
        .and(CountPerWindow.LATE, captured.get(CaptureLateData.LATE));
  }

  /** Attaches the window and the pane to each aggregate. */
  private static final class ToWindowResultFn
      extends DoFn<KV<EventKey, KV<Long, Long>>, WindowResult> {
    @ProcessElement
    public void processElement(
        @Element KV<EventKey, KV<Long, Long>> aggregate,
        BoundedWindow window,
        PaneInfo pane,
        OutputReceiver<WindowResult> out) {
      // On the FlinkRunner, FIRE_ALWAYS produces a second, empty final pane for windows whose
      // final pane had already fired: it carries nothing.
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
