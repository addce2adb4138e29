package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.watermark.Watermarks;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Instant;

/**
 * Parses text records into {@link Event}s with an {@link EventFormat}, and routes every record it
 * cannot parse to {@link #DEAD_LETTER} with the reason; the pipeline keeps running.
 *
 * <p>Each event is emitted at its event time. A record whose event time is earlier than the
 * timestamp its source gave it cannot be moved back in time (Beam forbids it); it is a dead letter
 * too, with a reason that says to give the source the same event-time field.
 *
 * <p>{@link #with} takes the lines of a live source; {@link #replayed} takes the lines of a {@code
 * ReplaySource} with the watermark each met, which the events keep for {@code CaptureLateData}. The
 * Beam counter {@code tidemark:recordsIn} counts every record, {@code tidemark:deadLetters} the
 * dead letters.
 */
public final class ParseEvents<InputT> extends PTransform<PCollection<InputT>, PCollectionTuple> {

  /** Parsed events, at their event time. */
  public static final TupleTag<Event> EVENTS = new TupleTag<Event>() {};

  /** Records that could not be parsed: the raw text and the reason. */
  public static final TupleTag<DeadLetter> DEAD_LETTER = new TupleTag<DeadLetter>() {};

  private final EventFormat format;
  private final SerializableFunction<InputT, KV<String, Instant>> withArrivalWatermark;

  private ParseEvents(
      EventFormat format, SerializableFunction<InputT, KV<String, Instant>> withArrivalWatermark) {
    this.format = format;
    this.withArrivalWatermark = withArrivalWatermark;
  }

  /** Parses the lines of a live source. */
  public static ParseEvents<String> with(EventFormat format) {
    return new ParseEvents<>(format, line -> KV.of(line, Watermarks.MIN));
  }

  /** Parses replayed lines, each with the watermark its source had when it read it. */
  public static ParseEvents<KV<String, Instant>> replayed(EventFormat format) {
    return new ParseEvents<>(format, record -> record);
  }

  @Override
  public PCollectionTuple expand(PCollection<InputT> records) {
    PCollectionTuple parsed =
        records
            .apply(
                "WithArrivalWatermark",
                MapElements.into(
                        TypeDescriptors.kvs(
                            TypeDescriptors.strings(), TypeDescriptor.of(Instant.class)))
                    .via(withArrivalWatermark))
            .setCoder(KvCoder.of(StringUtf8Coder.of(), InstantCoder.of()))
            .apply(
                "ParseEvent",
                ParDo.of(new ParseEventFn(format))
                    .withOutputTags(EVENTS, TupleTagList.of(DEAD_LETTER)));
    parsed.get(EVENTS).setCoder(Event.Coder.of());
    parsed.get(DEAD_LETTER).setCoder(DeadLetter.Coder.of());
    return parsed;
  }
}
