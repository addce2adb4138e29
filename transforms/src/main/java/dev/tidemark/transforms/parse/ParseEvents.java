package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.joda.time.Duration;

/**
 * Parses text records into {@link Event}s with an {@link EventFormat}, and routes every record it
 * cannot use to {@link #DEAD_LETTER} with the reason; the pipeline keeps running.
 *
 * <p>Events are emitted at their event time. Dead letters are: records the format cannot parse;
 * records whose event time is more than {@code maxFutureSkew} ahead of the wall clock ({@link
 * ClockSkewGuard}: the reason says how far; the source did not let them move the watermark either);
 * and records whose event time is earlier than the timestamp their source gave them, which Beam
 * cannot move back in time (the reason says to give the source the same event-time field).
 *
 * <p>{@link #with} takes the lines of a live source; {@link #withPositions} takes {@link
 * ArrivedLine}s that say where each came from. (A recording is parsed by the replay's windowing,
 * {@code dev.tidemark.transforms.replay}, with the same {@link ArrivedLineParser}.) The Beam
 * counter {@code tidemark:recordsIn} counts every record, {@code tidemark:deadLetters} the dead
 * letters.
 */
public final class ParseEvents<InputT> extends PTransform<PCollection<InputT>, PCollectionTuple> {

  /** Parsed events, at their event time. */
  public static final TupleTag<Event> EVENTS = new TupleTag<Event>() {};

  /** Records that could not be parsed: the raw text and the reason. */
  public static final TupleTag<DeadLetter> DEAD_LETTER = new TupleTag<DeadLetter>() {};

  private final EventFormat format;
  private final SerializableFunction<InputT, ArrivedLine> toArrivedLine;
  private final ClockSkewGuard clockSkewGuard;

  private ParseEvents(
      EventFormat format,
      SerializableFunction<InputT, ArrivedLine> toArrivedLine,
      ClockSkewGuard clockSkewGuard) {
    this.format = format;
    this.toArrivedLine = toArrivedLine;
    this.clockSkewGuard = clockSkewGuard;
  }

  /** Parses the lines of a live source; each event is emitted at its event time. */
  public static ParseEvents<String> with(EventFormat format) {
    return new ParseEvents<>(format, ArrivedLine::live, ClockSkewGuard.withDefaultSkew());
  }

  /**
   * Parses the lines of a live source that says where each came from (Kafka): dead letters and late
   * records keep the {@link ArrivedLine#source()}. Each event is emitted at its event time.
   */
  public static ParseEvents<ArrivedLine> withPositions(EventFormat format) {
    return new ParseEvents<>(format, line -> line, ClockSkewGuard.withDefaultSkew());
  }

  /**
   * Dead-letters records more than {@code maxFutureSkew} ahead of the wall clock; use the value the
   * source was given. Default {@link ClockSkewGuard#DEFAULT_MAX_FUTURE_SKEW}.
   */
  public ParseEvents<InputT> withMaxFutureSkew(Duration maxFutureSkew) {
    return new ParseEvents<>(
        format, toArrivedLine, ClockSkewGuard.allowingFutureSkew(maxFutureSkew));
  }

  @Override
  public PCollectionTuple expand(PCollection<InputT> records) {
    PCollectionTuple parsed =
        records
            .apply(
                "ToArrivedLine",
                MapElements.into(TypeDescriptor.of(ArrivedLine.class)).via(toArrivedLine))
            .apply(
                "ParseEvent",
                ParDo.of(new ParseEventFn(ArrivedLineParser.of(format, clockSkewGuard)))
                    .withOutputTags(EVENTS, TupleTagList.of(DEAD_LETTER)));
    return parsed;
  }
}
