package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Parses text records into {@link Event}s with an {@link EventFormat}, and routes every record it
 * cannot parse to {@link #DEAD_LETTER} with the reason; the pipeline keeps running.
 *
 * <p>Each event is emitted at its event time. A record whose event time is earlier than the
 * timestamp its source gave it cannot be moved back in time (Beam forbids it); it is a dead letter
 * too, with a reason that says to give the source the same event-time field.
 */
public final class ParseEvents extends PTransform<PCollection<String>, PCollectionTuple> {

  /** Parsed events, at their event time. */
  public static final TupleTag<Event> EVENTS = new TupleTag<Event>() {};

  /** Records that could not be parsed: the raw text and the reason. */
  public static final TupleTag<DeadLetter> DEAD_LETTER = new TupleTag<DeadLetter>() {};

  private final EventFormat format;

  private ParseEvents(EventFormat format) {
    this.format = format;
  }

  public static ParseEvents with(EventFormat format) {
    return new ParseEvents(format);
  }

  @Override
  public PCollectionTuple expand(PCollection<String> records) {
    PCollectionTuple parsed =
        records.apply(
            "ParseEvent",
            ParDo.of(new ParseEventFn(format))
                .withOutputTags(EVENTS, TupleTagList.of(DEAD_LETTER)));
    parsed.get(EVENTS).setCoder(Event.Coder.of());
    parsed.get(DEAD_LETTER).setCoder(DeadLetter.Coder.of());
    return parsed;
  }
}
