package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.io.LineOrigins;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.io.ReplaySource;
import dev.tidemark.transforms.join.MergeRecords;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.ArrivedLineParser;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A recording of tidemark's own events, replayed as a live run that saw its records in the same
 * order would see it: the entry point of every replay pipeline, and {@link RecordReplay} for {@link
 * Event}. The replay's rules (lateness and panes decided by the watermark each record met at the
 * source, see {@link ReplayPanesFn}) live only in the composites made here, which start from the
 * recording itself, so they cannot be applied to a live source.
 *
 * <pre>{@code
 * Replay orders =
 *     Replay.of(FileLines.matching("/data/orders-*.json"), JsonEventFormat.withKey("name")
 *             .withTime("amount"))
 *         .withMaxOutOfOrderness(Duration.standardSeconds(3));
 * PCollectionTuple counted = pipeline.apply("CountOrders", orders.countPerWindow(windowing));
 * counted.get(CountPerWindow.RESULTS);   // one WindowResult per pane
 * counted.get(CountPerWindow.LATE);      // records whose window had expired
 * counted.get(ParseEvents.DEAD_LETTER);  // records that could not be used, with the reason
 * }</pre>
 */
public final class Replay implements Serializable {

  private static final long serialVersionUID = 1L;

  private final RecordReplay<Event> records;
  private final EventFormat format;

  private Replay(RecordReplay<Event> records, EventFormat format) {
    this.records = records;
    this.format = format;
  }

  /**
   * Replays {@code lines}, parsed by {@code format}, in order, as fast as the runner reads, with no
   * out-of-orderness allowed until {@link #withMaxOutOfOrderness} says otherwise.
   */
  public static Replay of(RecordedLines lines, EventFormat format) {
    return new Replay(RecordReplay.of(lines, format, Event.Coder.of()), format);
  }

  /** How far behind the newest event time a record may arrive and still be on time. */
  public Replay withMaxOutOfOrderness(Duration maxOutOfOrderness) {
    return new Replay(records.withMaxOutOfOrderness(maxOutOfOrderness), format);
  }

  /** How far ahead of the wall clock an event time may be before the record is a dead letter. */
  public Replay withMaxFutureSkew(Duration maxFutureSkew) {
    return new Replay(records.withMaxFutureSkew(maxFutureSkew), format);
  }

  /** Releases at most {@code linesPerSecond} lines a second, like a live feed; 0: no limit. */
  public Replay withRate(double linesPerSecond) {
    return new Replay(records.withRate(linesPerSecond), format);
  }

  /** {@link RecordReplay#withProgressEvery}. */
  public Replay withProgressEvery(Duration interval) {
    return new Replay(records.withProgressEvery(interval), format);
  }

  /** {@link RecordReplay#withPartitions}. */
  public Replay withPartitions(
      SerializableFunction<String, String> partitionOf, Duration idleTimeout) {
    return new Replay(records.withPartitions(partitionOf, idleTimeout), format);
  }

  /**
   * {@link RecordReplay#withArrivalClock}.
   *
   * @throws IllegalArgumentException if the recording does not know when its lines arrived
   */
  public Replay withArrivalClock(Duration idleTimeout) {
    return new Replay(records.withArrivalClock(idleTimeout), format);
  }

  /**
   * Counts and sums per key and window: {@code CountPerWindow.RESULTS}, {@code LATE}, dead letters.
   */
  public CountReplayPerWindow countPerWindow(EventTimeWindowing windowing) {
    return new CountReplayPerWindow(this, windowing);
  }

  /**
   * Aggregates per key and window with {@code aggregate}, whose output {@code outputCoder} encodes:
   * {@link AggregateReplayPerWindow#panes()}, {@code CountPerWindow.LATE}, dead letters.
   */
  public <OutputT> AggregateReplayPerWindow<OutputT> aggregatePerWindow(
      EventTimeWindowing windowing,
      CombineFn<Event, ?, OutputT> aggregate,
      Coder<OutputT> outputCoder) {
    return new AggregateReplayPerWindow<>(this, windowing, aggregate, outputCoder);
  }

  /**
   * Left-joins two recordings per key and window: {@code LeftJoinPerWindow.JOINED}, {@code
   * LATE_LEFT}, {@code LATE_RIGHT} and {@code ParseEvents.DEAD_LETTER}.
   */
  public static LeftJoinReplaysPerWindow leftJoin(
      Replay left, Replay right, EventTimeWindowing windowing, MergeRecords merge) {
    return new LeftJoinReplaysPerWindow(left, right, windowing, merge);
  }

  /**
   * Reads and parses the recording, {@code ParseEvents.EVENTS} and {@code DEAD_LETTER}, without the
   * replay's windowing: for a pipeline that mixes it with a live source, where the live rules
   * ({@code AggregatePerWindow}) apply to both.
   */
  public PTransform<PBegin, PCollectionTuple> readAndParse() {
    return new PTransform<PBegin, PCollectionTuple>() {
      @Override
      public PCollectionTuple expand(PBegin begin) {
        return begin
            .apply("Read", Read.from(records.source()))
            .apply("Lines", Flatten.iterables())
            .apply("Text", MapElements.into(TypeDescriptors.strings()).via(ArrivedLine::text))
            .apply("Parse", ParseEvents.with(format).withMaxFutureSkew(records.maxFutureSkew()));
      }
    };
  }

  /**
   * Reads the recording for the replay's windowing: in batches of up to {@code maxLines} lines
   * ({@link RecordReplay#readInBatches}).
   */
  PTransform<PBegin, PCollection<List<ArrivedLine>>> readInBatches(int maxLines) {
    return records.readInBatches(maxLines);
  }

  /**
   * What replaying the recording with {@code windowing} does, worked out without running a
   * pipeline: when each window closes, every pane, every late record and dead letter, and what in
   * the recording does not fit the settings ({@link ReplayWarning}). Event times are judged against
   * the wall-clock time {@code now}, as a run started then would judge them ({@link
   * ExplainReplay}).
   */
  public ReplayTimeline explain(EventTimeWindowing windowing, Instant now) {
    return ExplainReplay.of(this, windowing, now);
  }

  /** The replay's source, in batches of up to {@code maxLines} lines. */
  ReplaySource sourceInBatches(int maxLines) {
    return records.sourceInBatches(maxLines);
  }

  /** Where each line of the recording came from, when it knows. */
  Optional<LineOrigins> origins() {
    return records.origins();
  }

  /** How far behind the newest event time a record may arrive and still be on time. */
  Duration maxOutOfOrderness() {
    return records.maxOutOfOrderness();
  }

  /** How the replay's windowing parses the recording's lines. */
  ArrivedLineParser<Event> parser() {
    return records.parser();
  }
}
