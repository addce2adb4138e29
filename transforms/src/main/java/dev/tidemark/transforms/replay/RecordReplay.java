package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.io.LineOrigins;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.io.ReplaySource;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.parse.ArrivedLineParser;
import dev.tidemark.transforms.parse.InferredCoder;
import dev.tidemark.transforms.parse.RecordFormat;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.joda.time.Duration;

/**
 * A recording of your own records, replayed as a live run that saw its lines in the same order
 * would see it: each record is judged on time, late within the lateness or expired by the watermark
 * it met at the source, so the result is the same on every runner and at any parallelism, run after
 * run. {@link Replay} is this for tidemark's own {@code Event}.
 *
 * <pre>{@code
 * RecordReplay<Click> clicks =
 *     RecordReplay.of(FileLines.matching("/data/clicks-*.json"),
 *             RecordFormat.json(Click.class, click -> new Instant(click.tsMillis())),
 *             SerializableCoder.of(Click.class))
 *         .withMaxOutOfOrderness(Duration.standardSeconds(2));
 * PerWindowResult<String, Click, Long> perPage =
 *     pipeline.apply(
 *         clicks.aggregatePerWindow(
 *             windowing, Click::page, StringUtf8Coder.of(), Count.<Click>combineFn()));
 * perPage.finalPanes();   // one KeyedPane(page, pane, count) per page and window
 * perPage.expired();      // KeyedExpired(page, Expired(click, event time, window, watermark))
 * perPage.deadLetters();  // lines that are no click, with the reason
 * }</pre>
 *
 * @param <T> what a line is parsed into
 */
public final class RecordReplay<T> implements Serializable {

  private static final long serialVersionUID = 1L;

  private final RecordedLines lines;
  private final RecordFormat<T> format;
  private final Coder<T> coder;

  /** The recording as the replay reads it, with every setting of the replay. */
  private final ReplaySource source;

  private RecordReplay(
      RecordedLines lines, RecordFormat<T> format, Coder<T> coder, ReplaySource source) {
    this.lines = lines;
    this.format = format;
    this.coder = coder;
    this.source = source;
  }

  /**
   * Replays {@code lines}, parsed by {@code format} into records that {@code coder} encodes, in
   * order, as fast as the runner reads, with no out-of-orderness allowed until {@link
   * #withMaxOutOfOrderness} says otherwise.
   */
  public static <T> RecordReplay<T> of(
      RecordedLines lines, RecordFormat<T> format, Coder<T> coder) {
    return new RecordReplay<>(lines, format, coder, ReplaySource.of(lines, format, Duration.ZERO));
  }

  /**
   * Replays {@code lines}, parsed by {@code format}, whose records' coder Beam infers from the type
   * the format parses into ({@link InferredCoder#ofRecordsOf}), as {@code ParseRecords.of(format)}
   * does on the live path.
   *
   * @throws IllegalArgumentException when the format does not know its type or Beam infers no coder
   */
  public static <T> RecordReplay<T> of(RecordedLines lines, RecordFormat<T> format) {
    Coder<T> coder = InferredCoder.ofRecordsOf(format);
    return new RecordReplay<>(lines, format, coder, ReplaySource.of(lines, format, Duration.ZERO));
  }

  /** How far behind the newest event time a record may arrive and still be on time. */
  public RecordReplay<T> withMaxOutOfOrderness(Duration maxOutOfOrderness) {
    return reading(source.withMaxOutOfOrderness(maxOutOfOrderness));
  }

  /** How far ahead of the wall clock an event time may be before the record is a dead letter. */
  public RecordReplay<T> withMaxFutureSkew(Duration maxFutureSkew) {
    return reading(source.withMaxFutureSkew(maxFutureSkew));
  }

  /** Releases at most {@code linesPerSecond} lines a second, like a live feed; 0: no limit. */
  public RecordReplay<T> withRate(double linesPerSecond) {
    return reading(source.withRate(linesPerSecond));
  }

  /**
   * Logs the replay's progress at most every {@code interval} on {@code tidemark.progress}: lines
   * read, their share of the recording, the rate and the replay's watermark. Off by default.
   */
  public RecordReplay<T> withProgressEvery(Duration interval) {
    return reading(source.withProgressEvery(interval));
  }

  /**
   * Replays a recording of several partitions (a Kafka topic's, say) under the watermark a live run
   * over them has ({@link dev.tidemark.transforms.watermark.PartitionedWatermark}): {@code
   * partitionOf} names the partition of each line; a partition that has fallen more than {@code
   * idleTimeout} behind the newest event time stops holding the watermark back.
   */
  public RecordReplay<T> withPartitions(
      SerializableFunction<String, String> partitionOf, Duration idleTimeout) {
    return reading(source.withPartitions(partitionOf, idleTimeout));
  }

  /**
   * Replays a recording that knows each line's partition and arrival time (a snapshot of a Kafka
   * topic, {@link RecordedLines#origins}) under the live rule, the arrival times standing in for
   * the wall clock ({@link dev.tidemark.transforms.watermark.ArrivalClockWatermark}): a partition
   * without a record for {@code idleTimeout} stops holding the watermark back.
   *
   * @throws IllegalArgumentException if the recording does not know when its lines arrived
   */
  public RecordReplay<T> withArrivalClock(Duration idleTimeout) {
    return reading(source.withArrivalClock(idleTimeout));
  }

  /** This replay, reading the recording as {@code changed} does. */
  private RecordReplay<T> reading(ReplaySource changed) {
    return new RecordReplay<>(lines, format, coder, changed);
  }

  /**
   * {@link #aggregatePerWindow(EventTimeWindowing, SerializableFunction, Coder, CombineFn)} with
   * the key's coder inferred from its type, as the live path's {@code WithKeys.withKeyType} infers
   * it: {@code aggregatePerWindow(windowing, Click::page, TypeDescriptors.strings(), aggregate)}.
   */
  public <K, OutputT> RecordReplayPerWindow<K, T, OutputT> aggregatePerWindow(
      EventTimeWindowing windowing,
      SerializableFunction<T, K> keyOf,
      TypeDescriptor<K> keyType,
      CombineFn<T, ?, OutputT> aggregate) {
    return aggregatePerWindow(windowing, keyOf, InferredCoder.of(keyType), aggregate);
  }

  /**
   * Aggregates the records per key, which {@code keyOf} finds and {@code keyCoder} encodes, and per
   * window of {@code windowing}, with {@code aggregate}: each pane, each record whose window had
   * expired at the watermark it met, and each line that is no record, with the reason. The key
   * coder must be deterministic, as for any grouping.
   */
  public <K, OutputT> RecordReplayPerWindow<K, T, OutputT> aggregatePerWindow(
      EventTimeWindowing windowing,
      SerializableFunction<T, K> keyOf,
      Coder<K> keyCoder,
      CombineFn<T, ?, OutputT> aggregate) {
    return new RecordReplayPerWindow<>(
        readInBatches(ReplayPanes.LINES_PER_BATCH),
        new KeyedRecordType<>(parser(), keyOf, keyCoder, coder),
        windowing,
        aggregate);
  }

  /**
   * Reads the recording for the replay's windowing: in batches of up to {@code maxLines} lines,
   * each line with its arrival watermark and position, each batch at its lowest arrival watermark
   * ({@link ReplaySource#inBatchesAtArrivalWatermark}).
   */
  PTransform<PBegin, PCollection<List<ArrivedLine>>> readInBatches(int maxLines) {
    return Read.from(sourceInBatches(maxLines));
  }

  /** The replay's source, in batches of up to {@code maxLines} lines. */
  ReplaySource sourceInBatches(int maxLines) {
    return source().inBatchesAtArrivalWatermark(maxLines);
  }

  /** Where each line of the recording came from, when it knows. */
  Optional<LineOrigins> origins() {
    return lines.origins();
  }

  /** How far behind the newest event time a record may arrive and still be on time. */
  Duration maxOutOfOrderness() {
    return source.maxOutOfOrderness();
  }

  /** How far ahead of the wall clock an event time may be before the record is a dead letter. */
  Duration maxFutureSkew() {
    return source.clockSkewGuard().maxFutureSkew();
  }

  /** How the replay's windowing parses the recording's lines. */
  ArrivedLineParser<T> parser() {
    return ArrivedLineParser.of(format, source.clockSkewGuard());
  }

  /** The recording as lines, whole and in order. */
  ReplaySource source() {
    return source;
  }
}
