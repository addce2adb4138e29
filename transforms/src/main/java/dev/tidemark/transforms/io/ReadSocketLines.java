package dev.tidemark.transforms.io;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.watermark.IdleAwareWatermark;
import java.util.UUID;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Reads text lines from a TCP server as an unbounded, event-timed stream: what Flink's {@code
 * socketTextStream} is, with a watermark that cannot overflow or stall.
 *
 * <pre>{@code
 * PCollectionTuple events =
 *     p.apply(
 *             "ReadLines",
 *             ReadSocketLines.from("localhost", 7777)
 *                 .withEventTime(CsvEventFormat.keyAndTime().eventTimes())
 *                 .withMaxOutOfOrderness(Duration.standardSeconds(1))
 *                 .withIdleTimeout(Duration.standardSeconds(5)))
 *         .apply("Parse", ParseEvents.withPositions(CsvEventFormat.keyAndTime()));
 * }</pre>
 *
 * <p>What it guarantees:
 *
 * <ul>
 *   <li>It connects as a client. The job may start before or after the server: while the server is
 *       not listening, or after it went away, the source retries with backoff and logs one line.
 *   <li>Each line is emitted with the event time {@link #withEventTime} gives it. A line without
 *       one (the function returned null or threw), or with one too far ahead of the wall clock
 *       ({@link ClockSkewGuard}), is emitted at the current watermark without moving it, so it is
 *       never late and the parse step routes it to the dead-letter output.
 *   <li>A line longer than {@link #withMaxLineBytes} (1 MiB by default) comes as its first bytes
 *       with its {@link ArrivedLine#deadReason}: its length, the limit and its number on the
 *       connection. It is never held whole, does not move the watermark, and the parse step makes
 *       it a dead letter. A sender that never ends a line costs the limit, not the JVM.
 *   <li>The watermark follows {@link IdleAwareWatermark} with an input that holds at the minimum
 *       until its first line (a sender may replay history), and that, once the socket has been
 *       quiet for the idle timeout, advances at the pace of the wall clock from the last line, so
 *       the last window fires while the socket stays open (scenarios S1, S2).
 * </ul>
 *
 * <p>On the FlinkRunner without checkpointing, run with {@code
 * --shutdownSourcesAfterIdleMs=9223372036854775807}: otherwise Flink ends the Impulse that starts
 * this source at once, the end of that input pushes the maximum watermark past the source's own,
 * and every line arrives late. tidemark's pipelines set it; with checkpointing it is the default.
 * With it, a Flink job does not end when the sender closes, even with {@link #endWhenClosed}: every
 * window fires and reaches its sink, but Beam's FlinkRunner keeps the Impulse alive (ending it
 * would drop the reader's pending timers). Cancel the job once its output is there; tidemark's
 * {@code count} and {@code metrics} do so themselves when Flink's REST API says every operator has
 * seen the end of its input.
 *
 * <p>What it does not: a socket is not replayable. Lines sent while the job is down, and lines
 * received but not yet emitted when a worker fails, are lost; checkpoints cannot bring them back.
 * It reads from one connection, so it does not scale out; use Kafka for that.
 */
public final class ReadSocketLines extends PTransform<PBegin, PCollection<ArrivedLine>> {

  /** Used unless {@link #withIdleTimeout} says otherwise. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.standardSeconds(10);

  /** Used unless {@link #withMaxLineBytes} says otherwise: 1 MiB. */
  public static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;

  private final String host;
  private final int port;
  private final SerializableFunction<String, @Nullable Instant> eventTime;
  private final IdleAwareWatermark rule;
  private final boolean endWhenClosed;
  private final int maxLineBytes;

  private ReadSocketLines(
      String host,
      int port,
      SerializableFunction<String, @Nullable Instant> eventTime,
      IdleAwareWatermark rule,
      boolean endWhenClosed,
      int maxLineBytes) {
    this.host = host;
    this.port = port;
    this.eventTime = eventTime;
    this.rule = rule;
    this.endWhenClosed = endWhenClosed;
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Lines from {@code host:port}, timestamped with the time they arrive until {@link
   * #withEventTime} says otherwise.
   */
  public static ReadSocketLines from(String host, int port) {
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException(
          "socket host: '" + host + "' is empty; use e.g. localhost");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException(
          "socket port: " + port + " is not a TCP port; use a number from 1 to 65535");
    }
    return new ReadSocketLines(
        host,
        port,
        line -> Instant.now(),
        IdleAwareWatermark.emptyHolds(Duration.ZERO, DEFAULT_IDLE_TIMEOUT),
        false,
        DEFAULT_MAX_LINE_BYTES);
  }

  /** Takes each line's event time from {@code eventTime}; null means the line has none. */
  public ReadSocketLines withEventTime(SerializableFunction<String, @Nullable Instant> eventTime) {
    return new ReadSocketLines(host, port, eventTime, rule, endWhenClosed, maxLineBytes);
  }

  /** How far behind the newest event time a line may arrive and still be on time. */
  public ReadSocketLines withMaxOutOfOrderness(Duration maxOutOfOrderness) {
    return withRule(IdleAwareWatermark.emptyHolds(maxOutOfOrderness, rule.idleTimeout()));
  }

  /** How long the socket must be quiet before the watermark advances without data. */
  public ReadSocketLines withIdleTimeout(Duration idleTimeout) {
    return withRule(IdleAwareWatermark.emptyHolds(rule.maxOutOfOrderness(), idleTimeout));
  }

  /**
   * How far ahead of the wall clock a line's event time may be ({@link ClockSkewGuard}); a line
   * further ahead is emitted at the current watermark and does not move it. Default {@link
   * ClockSkewGuard#DEFAULT_MAX_FUTURE_SKEW}.
   */
  public ReadSocketLines withMaxFutureSkew(Duration maxFutureSkew) {
    return new ReadSocketLines(
        host,
        port,
        eventTime,
        rule.withClockSkewGuard(ClockSkewGuard.allowingFutureSkew(maxFutureSkew)),
        endWhenClosed,
        maxLineBytes);
  }

  /**
   * Ends the stream (the watermark goes to the end of time and every window fires) when the server
   * closes the connection, instead of reconnecting. The server not listening yet is still retried.
   */
  public ReadSocketLines endWhenClosed() {
    return new ReadSocketLines(host, port, eventTime, rule, true, maxLineBytes);
  }

  /**
   * How long a line may be, in bytes; a longer one comes as its first {@link RecordLimit#keptBytes}
   * bytes with {@link ArrivedLine#deadReason} saying so and where it was, and is never held whole.
   * Default {@link #DEFAULT_MAX_LINE_BYTES}.
   */
  public ReadSocketLines withMaxLineBytes(int maxLineBytes) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException(
          "maxLineBytes: " + maxLineBytes + " is not a length; use 1 or more bytes");
    }
    return new ReadSocketLines(host, port, eventTime, rule, endWhenClosed, maxLineBytes);
  }

  private ReadSocketLines withRule(IdleAwareWatermark newRule) {
    return new ReadSocketLines(
        host,
        port,
        eventTime,
        newRule.withClockSkewGuard(rule.clockSkewGuard()),
        endWhenClosed,
        maxLineBytes);
  }

  @Override
  public PCollection<ArrivedLine> expand(PBegin input) {
    ReadSocketLinesFn read =
        new ReadSocketLinesFn(
            host + ":" + port + "#" + UUID.randomUUID(),
            host,
            port,
            endWhenClosed,
            maxLineBytes,
            eventTime,
            rule);
    return input.apply("Start", Impulse.create()).apply("ReadLines", ParDo.of(read));
  }
}
