package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.windowing.RecordParser;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.WithFailures;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.joda.time.Duration;

/**
 * {@link ParseRecords} for tidemark's own {@link Event}: parses text records with an {@link
 * EventFormat}, each event emitted at its event time under {@link #EVENTS}, and routes every record
 * it cannot use to {@link #DEAD_LETTER} with the reason; the pipeline keeps running. The dead
 * letters, and the counters, are {@link ParseRecords}'.
 *
 * <p>{@link #with} takes the lines of a live source; {@link #withPositions} takes {@link
 * ArrivedLine}s that say where each came from. (A recording is parsed by the replay's windowing,
 * {@code dev.tidemark.transforms.replay}, with the same {@link ArrivedLineParser}.)
 */
public final class ParseEvents<InputT> extends PTransform<PCollection<InputT>, PCollectionTuple> {

  /** Parsed events, at their event time. */
  public static final TupleTag<Event> EVENTS = new TupleTag<Event>() {};

  /** Records that could not be parsed: the raw text and the reason. */
  public static final TupleTag<DeadLetter> DEAD_LETTER = new TupleTag<DeadLetter>() {};

  private final ParseRecords<InputT, Event> parse;

  private ParseEvents(ParseRecords<InputT, Event> parse) {
    this.parse = parse;
  }

  /** Parses the lines of a live source; each event is emitted at its event time. */
  public static ParseEvents<String> with(EventFormat format) {
    return new ParseEvents<>(ParseRecords.of(format, Event.Coder.of()));
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
    return new ParseEvents<>(ParseRecords.of(format, Event.Coder.of(), toArrivedLine));
  }

  /**
   * Dead-letters records more than {@code maxFutureSkew} ahead of the wall clock; use the value the
   * source was given. Default {@link ClockSkewGuard#DEFAULT_MAX_FUTURE_SKEW}.
   */
  public ParseEvents<InputT> withMaxFutureSkew(Duration maxFutureSkew) {
    return new ParseEvents<>(parse.withMaxFutureSkew(maxFutureSkew));
  }

  /**
   * The same parse for records that come in {@link SourceBatch}es, run in the step that counts them
   * before the shuffle ({@code CountPerWindow.ofBatchesParsedBy}): each record's event at its event
   * time, or its dead letter to that step's rejected output. On Flink a parse step of its own there
   * would hold back the watermark while the source never pauses ({@link RecordParser}).
   */
  public RecordParser<InputT, Event, DeadLetter> inTheGatheringStep() {
    return parse.inTheGatheringStep();
  }

  /**
   * The same parse for records that come in {@link SourceBatch}es, for a step that takes events one
   * by one (a join): {@link #EVENTS}, each at its event time, and {@link #DEAD_LETTER}. A count
   * parses them in its own gathering step instead ({@link #inTheGatheringStep}).
   */
  public PTransform<PCollection<SourceBatch<InputT>>, PCollectionTuple> inBatches() {
    RecordParser<InputT, Event, DeadLetter> parser = parse.inTheGatheringStep();
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
    WithFailures.Result<PCollection<Event>, DeadLetter> parsed = records.apply(parse);
    return PCollectionTuple.of(EVENTS, parsed.output()).and(DEAD_LETTER, parsed.failures());
  }
}
