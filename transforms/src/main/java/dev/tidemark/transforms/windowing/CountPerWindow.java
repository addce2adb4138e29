package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.model.WindowResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Counts events, and sums their values, per key in {@link EventTimeWindowing}'s windows, with late
 * events captured instead of dropped: {@link AggregatePerWindow} with {@link Event} as its record.
 *
 * <pre>{@code
 * PCollectionTuple counted = events.apply(CountPerWindow.of(windowing));
 * counted.get(CountPerWindow.RESULTS); // one WindowResult per pane
 * counted.get(CountPerWindow.LATE);    // events that came after their window had expired
 * }</pre>
 *
 * <p>For every input event, exactly one of: it is counted in its window's final pane, or it is in
 * {@link #LATE}. See {@link AggregatePerWindow} for why, and for how its panes may be grouped
 * differently from the preset's.
 */
public final class CountPerWindow extends PTransform<PCollection<Event>, PCollectionTuple> {

  /** One pane of one key's count and sum in one window. */
  public static final TupleTag<WindowResult> RESULTS = new TupleTag<WindowResult>() {};

  /** Events that arrived after their window had expired. */
  public static final TupleTag<Expired<Event>> LATE = new TupleTag<Expired<Event>>() {};

  private static final KvCoder<EventKey, Event> KEYED_EVENT_CODER =
      KvCoder.of(EventKey.Coder.of(), Event.Coder.of());

  private final EventTimeWindowing windowing;

  private CountPerWindow(EventTimeWindowing windowing) {
    this.windowing = windowing;
  }

  public static CountPerWindow of(EventTimeWindowing windowing) {
    return new CountPerWindow(windowing);
  }

  /**
   * The same count for events that come in {@link SourceBatch}es: the events of a batch that its
   * watermark bound proves on time are counted per key and window before the shuffle ({@link
   * AggregatePerWindow#ofBatches}). The outputs, and what is exact, are the same.
   */
  public static PTransform<PCollection<SourceBatch<Event>>, PCollectionTuple> ofBatches(
      EventTimeWindowing windowing) {
    return new PTransform<PCollection<SourceBatch<Event>>, PCollectionTuple>() {
      @Override
      public PCollectionTuple expand(PCollection<SourceBatch<Event>> batches) {
        return batches.apply(
            "CountAndSum",
            countAndSum(windowing)
                .ofBatchesKeyedBy(Event::key, EventKey.Coder.of(), new ResultsAndLate()));
      }
    };
  }

  /**
   * The same count for batches of raw records, each parsed into an event by {@code parser} in the
   * step that gathers them before the shuffle, so that on Flink no step between the source and the
   * shuffle holds back the watermark ({@link RecordParser}). The output also has {@code
   * deadLetters}: the records {@code parser} has no event for.
   */
  public static <RecordT>
      PTransform<PCollection<SourceBatch<RecordT>>, PCollectionTuple> ofBatchesParsedBy(
          EventTimeWindowing windowing,
          RecordParser<RecordT, Event, DeadLetter> parser,
          TupleTag<DeadLetter> deadLetters) {
    return new PTransform<PCollection<SourceBatch<RecordT>>, PCollectionTuple>() {
      @Override
      public PCollectionTuple expand(PCollection<SourceBatch<RecordT>> batches) {
        return batches.apply(
            "CountAndSum",
            countAndSum(windowing)
                .ofBatchesParsedBy(
                    parser,
                    Event.Coder.of(),
                    Event::key,
                    EventKey.Coder.of(),
                    deadLetters,
                    DeadLetter.Coder.of(),
                    new ResultsAndLate()));
      }
    };
  }

  @Override
  public PCollectionTuple expand(PCollection<Event> events) {
    return events
        .apply("KeyByKey", WithKeys.of(Event::key).withKeyType(TypeDescriptor.of(EventKey.class)))
        .setCoder(KEYED_EVENT_CODER)
        .apply("CountAndSum", countAndSum(windowing).emitting(new ResultsAndLate()));
  }

  private static AggregatePerWindow<EventKey, Event, KV<Long, Long>> countAndSum(
      EventTimeWindowing windowing) {
    return AggregatePerWindow.of(windowing, CountAndSumFn.summing(Event::value));
  }

  /**
   * The panes as {@link WindowResult}s under {@link #RESULTS} and the expired events as {@code
   * Expired<Event>}s under {@link #LATE}, made by the step that decides them.
   */
  private static final class ResultsAndLate
      extends PaneOutputs<EventKey, Event, KV<Long, Long>, WindowResult, Expired<Event>> {

    private static final long serialVersionUID = 1L;

    ResultsAndLate() {
      super(RESULTS, LATE);
    }

    @Override
    WindowResult pane(EventKey key, WindowPane pane, KV<Long, Long> countAndSum) {
      return WindowResult.of(key, pane, countAndSum);
    }

    @Override
    Expired<Event> expired(EventKey key, Expired<Event> expired) {
      return expired;
    }

    @Override
    Coder<WindowResult> paneCoder(Coder<EventKey> keyCoder, Coder<KV<Long, Long>> outputCoder) {
      return WindowResult.Coder.of();
    }

    @Override
    Coder<Expired<Event>> expiredCoder(Coder<EventKey> keyCoder, Coder<Event> valueCoder) {
      return Expired.ExpiredCoder.of(Event.Coder.of());
    }
  }
}
