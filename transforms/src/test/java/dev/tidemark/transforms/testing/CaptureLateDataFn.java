package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import dev.tidemark.transforms.windowing.Expired;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/** The stateful step of {@link CaptureLateData}; its javadoc explains why it is exact. */
final class CaptureLateDataFn extends DoFn<KV<EventKey, Event>, Event> {

  private static final String WATERMARK = "watermark";

  @TimerId(WATERMARK)
  private final TimerSpec watermarkSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  private final Counter lateRecords = TidemarkMetrics.lateRecords();
  private final EventTimeWindowing windowing;

  CaptureLateDataFn(EventTimeWindowing windowing) {
    this.windowing = windowing;
  }

  @ProcessElement
  public void processElement(
      @Element KV<EventKey, Event> keyed,
      @TimerId(WATERMARK) Timer watermarkTimer,
      MultiOutputReceiver out) {
    Event event = keyed.getValue();
    // This step's input watermark: for an event-time timer the "current relative time" is
    // exactly that.
    Instant watermark = watermarkTimer.getCurrentRelativeTime();
    IntervalWindow window = windowing.windowOf(event.eventTime());
    if (windowing.isExpired(window, watermark)) {
      lateRecords.inc();
      out.get(CaptureLateData.LATE)
          .output(new Expired<>(event, event.eventTime(), window, watermark));
    } else {
      out.get(CaptureLateData.ACCEPTED).output(event);
    }
  }

  @OnTimer(WATERMARK)
  public void onWatermark() {
    // Never set: the timer only lends this step its view of the input watermark.
  }
}
