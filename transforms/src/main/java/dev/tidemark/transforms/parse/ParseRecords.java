package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.windowing.RecordParser;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.WithFailures;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.joda.time.Duration;

/**
 * Parses text records into your own type with a {@link RecordFormat}, and routes every record it
 * cannot use to the dead letters with the reason; the pipeline keeps running. The result is Beam's
 * {@link WithFailures.Result}: {@code output()} the records, each at its event time, and {@code
 * failures()} the {@link DeadLetter}s.
 *
 * <pre>{@code
 * WithFailures.Result<PCollection<Click>, DeadLetter> parsed =
 *     lines.apply(ParseRecords.of(RecordFormat.json(Click.class, Click::eventTime), clickCoder));
 * parsed.output();    // the clicks, each timestamped with its event time
 * parsed.failures();  // the lines that are no click, each with the reason
 * }</pre>
 *
 * <p>Dead letters are: records the format cannot parse ({@link BadRecordException}); records whose
 * event time is more than {@code maxFutureSkew} ahead of the wall clock, or before 1973 ({@link
 * ClockSkewGuard}: the reason says how far; a tidemark source did not let them move the watermark
 * either); records whose event time is earlier than the timestamp their source gave them, which
 * Beam cannot move back in time (the reason says to give the source the same event-time field); and
 * lines a tidemark source already knows are no record ({@link ArrivedLine#deadReason()}: a socket
 * line over the length limit, a Kafka value that is not UTF-8). The Beam counter {@code
 * tidemark:recordsIn} counts every record, {@code tidemark:deadLetters} the dead letters.
 *
 * <p>{@link #of} takes plain lines; {@link #ofArrivedLines} takes the {@link ArrivedLine}s of
 * tidemark's socket and Kafka sources, whose dead letters keep where each line came from. {@link
 * ParseEvents} is this transform for tidemark's own {@code Event}.
 *
 * @param <InputT> what the source gives
 * @param <T> what a record is parsed into
 */
public final class ParseRecords<InputT, T>
    extends PTransform<PCollection<InputT>, WithFailures.Result<PCollection<T>, DeadLetter>> {

  private final RecordFormat<T> format;
  private final Coder<T> coder;
  private final SerializableFunction<InputT, ArrivedLine> toArrivedLine;
  private final ClockSkewGuard clockSkewGuard;

  private ParseRecords(
      RecordFormat<T> format,
      Coder<T> coder,
      SerializableFunction<InputT, ArrivedLine> toArrivedLine,
      ClockSkewGuard clockSkewGuard) {
    this.format = format;
    this.coder = coder;
    this.toArrivedLine = toArrivedLine;
    this.clockSkewGuard = clockSkewGuard;
  }

  /**
   * Parses plain lines with {@code format}, whose records' coder Beam infers from the type the
   * format parses into ({@link RecordFormat#recordType}: a schema's coder, or {@code
   * SerializableCoder} for a {@code Serializable} record).
   *
   * @throws IllegalArgumentException when the format does not know its type or Beam infers no coder
   */
  public static <T> ParseRecords<String, T> of(RecordFormat<T> format) {
    return of(format, InferredCoder.ofRecordsOf(format));
  }

  /** Parses plain lines with {@code format}; {@code coder} encodes what it parses them into. */
  public static <T> ParseRecords<String, T> of(RecordFormat<T> format, Coder<T> coder) {
    return of(format, coder, ArrivedLine::live);
  }

  /**
   * Parses the lines of a tidemark source ({@code ReadSocketLines}, a Kafka source of {@link
   * ArrivedLine}s): a line its source cut is a dead letter with the source's reason, and dead
   * letters keep the line's Kafka position.
   */
  public static <T> ParseRecords<ArrivedLine, T> ofArrivedLines(
      RecordFormat<T> format, Coder<T> coder) {
    return of(format, coder, line -> line);
  }

  /** The same, for records that {@code toArrivedLine} makes {@link ArrivedLine}s of. */
  public static <InputT, T> ParseRecords<InputT, T> of(
      RecordFormat<T> format,
      Coder<T> coder,
      SerializableFunction<InputT, ArrivedLine> toArrivedLine) {
    return new ParseRecords<>(format, coder, toArrivedLine, ClockSkewGuard.withDefaultSkew());
  }

  /**
   * Dead-letters records more than {@code maxFutureSkew} ahead of the wall clock; give it the value
   * the source was given. Default {@link ClockSkewGuard#DEFAULT_MAX_FUTURE_SKEW}.
   */
  public ParseRecords<InputT, T> withMaxFutureSkew(Duration maxFutureSkew) {
    return new ParseRecords<>(
        format, coder, toArrivedLine, ClockSkewGuard.allowingFutureSkew(maxFutureSkew));
  }

  /**
   * The same parse for records that come in {@link SourceBatch}es, run in the step that gathers
   * them before the shuffle ({@code AggregatePerWindow.ofBatchesParsedBy}): each record at its
   * event time, or its dead letter to that step's rejected output. On Flink a parse step of its own
   * there would hold back the watermark while the source never pauses ({@link RecordParser}).
   */
  public RecordParser<InputT, T, DeadLetter> inTheGatheringStep() {
    return new ParseInGatherStep<>(parser(), toArrivedLine);
  }

  /** The one parse rule of this transform, wherever it runs. */
  private ArrivedLineParser<T> parser() {
    return ArrivedLineParser.of(format, clockSkewGuard);
  }

  @Override
  public WithFailures.Result<PCollection<T>, DeadLetter> expand(PCollection<InputT> records) {
    TupleTag<T> parsed = new TupleTag<>();
    TupleTag<DeadLetter> deadLetters = new TupleTag<>();
    PCollectionTuple out =
        records
            .apply(
                "ToArrivedLine",
                MapElements.into(TypeDescriptor.of(ArrivedLine.class)).via(toArrivedLine))
            .apply(
                "ParseRecord",
                ParDo.of(new ParseRecordFn<>(parser(), parsed, deadLetters))
                    .withOutputTags(parsed, TupleTagList.of(deadLetters)));
    return WithFailures.Result.of(
        out.get(parsed).setCoder(coder), out.get(deadLetters).setCoder(DeadLetter.Coder.of()));
  }
}
