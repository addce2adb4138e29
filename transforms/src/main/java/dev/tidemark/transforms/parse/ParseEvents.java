package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.windowing.RecordParser;
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
    return withPositions(format, line -> line);
  }

  /** The same, for records that {@code toArrivedLine} makes {@link ArrivedLine}s of. */
  public static <InputT> ParseEvents<InputT> withPositions(
      EventFormat format, SerializableFunction<InputT, ArrivedLine> toArrivedLine) {
    return new ParseEvents<>(format, toArrivedLine, ClockSkewGuard.withDefaultSkew());
  }

  /**
   * Dead-letters records more than {@code maxFutureSkew} ahead of the wall clock; use the value the
   * source was given. Default {@link ClockSkewGuard#DEFAULT_MAX_FUTURE_SKEW}.
   */
  public ParseEvents<InputT> withMaxFutureSkew(Duration maxFutureSkew) {
    return new ParseEvents<>(
        format, toArrivedLine, ClockSkewGuard.allowingFutureSkew(maxFutureSkew));
  }

  /**
   * The same parse for records that come in {@link SourceBatch}es, run in the step that counts them
   * before the shuffle ({@code CountPerWindow.ofBatchesParsedBy}): each record's event at its event
   * time, or its dead letter to that step's rejected output. On Flink a parse step of its own there
   * would hold back the watermark while the source never pauses ({@link RecordParser}).
   */
  public RecordParser<InputT, Event, DeadLetter> inTheGatheringStep() {
    return recordParser();
  }

  /**
   * The same parse for records that come in {@link SourceBatch}es, for a step that takes events one
   * by one (a join): {@link #EVENTS}, each at its event time, and {@link #DEAD_LETTER}. A count
   * parses them in its own gathering step instead ({@link #inTheGatheringStep}).
   */
  public PTransform<PCollection<SourceBatch<InputT>>, PCollectionTuple> inBatches() {
    RecordParser<InputT, Event, DeadLetter> parser = recordParser();
    return new PTransform<PCollection<SourceBatch<InputT>>, PCollectionTuple>() {
      @Override
      public PCollectionTuple expand(PCollection<SourceBatch<InputT>> batches) {
        return batches.apply(
            "ParseBatch",
            ParDo.of(new ParseBatchRecordsFn<>(parser))
                .withOutputTags(EVENTS, TupleTagList.of(DEAD_LETTER)));
      }
    };
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

  /** The parse of one record of a batch, the same wherever the batch is parsed. */
  private RecordParser<InputT, Event, DeadLetter> recordParser() {
    return new ParseInGatherStep<>(ArrivedLineParser.of(format, clockSkewGuard), toArrivedLine);
  }
}
