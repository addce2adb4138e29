package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.testing.WindowsHolding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A seeded random stream of {@code key,epochMillis,sequence} lines with out-of-order, late and
 * malformed records and watermark advances, as a {@link TestStream}, in a random configuration
 * (window size, allowed lateness, out-of-orderness, final panes only or every pane), together with
 * what a straightforward reference computation says must come out of it: the records that are late
 * (their window had expired under the watermark current when they were added), those late within
 * the lateness, the malformed ones, and each (key, window)'s final count and sum.
 *
 * <p>The generator goes to the edges on purpose: some watermark advances land exactly on a window's
 * end or its expiry, or a millisecond either side, and some records are at the first or last
 * millisecond of a window next to such an edge. A rule that is off by one at an edge then changes
 * which records are late, and the reference says so.
 *
 * <p>The reference is written here on its own, on purpose, and calls nothing of the code under
 * test: an oracle that called {@link EventTimeWindowing#isExpired} would share its mistakes. Its
 * rules are Beam's: windows are aligned to the epoch, a window closes when the watermark reaches
 * its end, and it expires when the watermark passes its last millisecond plus the allowed lateness.
 */
final class RandomStream {

  private static final String[] KEYS = {"a", "b", "c"};

  /** Where event time starts: a real epoch millisecond, as the clock-skew guard wants. */
  private static final long START = 1_600_000_000_000L;

  private static final long[] WINDOW_SIZES = {1_000, 2_000, 5_000};

  /** Sliding windows' sizes and slides: 3 s every 2 s has slices of 1 s, ends off the slide. */
  private static final long[][] SLIDING = {{2_000, 1_000}, {3_000, 2_000}, {5_000, 1_000}};

  /** Session gaps. */
  private static final long[] SESSION_GAPS = {500, 1_000, 3_000};

  /** Cumulating windows' steps and largest sizes. */
  private static final long[][] CUMULATING = {{1_000, 3_000}, {2_000, 4_000}, {1_000, 5_000}};

  private static final long[] LATENESSES = {0, 1_000, 3_000};
  private static final int[] OUT_OF_ORDERNESS = {1_000, 3_000};

  /** The configuration this stream is judged by. */
  final EventTimeWindowing windowing;

  final TestStream<String> stream;

  /**
   * The same records in the same order, each step's records as one {@link SourceBatch} whose bound
   * is the watermark they were added at: what a batching source gives.
   */
  final TestStream<SourceBatch<String>> batches;

  final int inputCount;
  final Set<String> expectedLate = new HashSet<>();
  final Set<String> expectedDeadLetters = new HashSet<>();

  /** How many records came after their window closed, but before it expired. */
  final int expectedLateWithinLateness;

  /** How many (record, window) pairs are counted in a window's final pane. */
  long expectedCountedPairs;

  /** How many records missed some of their windows and are counted in the others. */
  int expectedPartlyLate;

  /** "key,windowStart,windowEnd" -> {count, sum}. */
  final Map<String, long[]> expectedFinal = new HashMap<>();

  /**
   * "key,windowStart,windowEnd" -> the largest value (the sequence number) of the window's final
   * pane.
   */
  final Map<String, Long> expectedMax = new TreeMap<>();

  private final WindowKind.Shape shape;

  /** The reference's sessions, for a stream of sessions; null otherwise. */
  private final @Nullable SessionReference sessions;

  private final long size;

  /** How far apart window ends are: the size, the slide or the step. */
  private final long endEvery;

  /** Where window ends are, modulo {@link #endEvery}: sliding windows end at starts plus size. */
  private final long endOffset;

  private final long lateness;

  /**
   * A stream of seed {@code seed}; with {@code processingTime}, processing time also passes between
   * steps, long enough at times for an idle flush (the FlinkRunner's TestStream cannot do that).
   */
  RandomStream(long seed, boolean processingTime) {
    this(seed, processingTime, WindowKind.Shape.TUMBLING);
  }

  /** The same, in windows of {@code shape}. */
  RandomStream(long seed, boolean processingTime, WindowKind.Shape shape) {
    Random random = new Random(seed);
    this.shape = shape;
    EventTimeWindowing shaped;
    switch (shape) {
      case SLIDING:
        long[] sizeAndSlide = SLIDING[random.nextInt(SLIDING.length)];
        size = sizeAndSlide[0];
        endEvery = sizeAndSlide[1];
        endOffset = size % endEvery;
        shaped = EventTimeWindowing.sliding(Duration.millis(size), Duration.millis(endEvery));
        break;
      case SESSIONS:
        size = SESSION_GAPS[random.nextInt(SESSION_GAPS.length)];
        endEvery = size;
        endOffset = 0;
        shaped = EventTimeWindowing.sessions(Duration.millis(size));
        break;
      case CUMULATING:
        long[] stepAndSize = CUMULATING[random.nextInt(CUMULATING.length)];
        size = stepAndSize[1];
        endEvery = stepAndSize[0];
        endOffset = 0;
        shaped = EventTimeWindowing.cumulating(Duration.millis(endEvery), Duration.millis(size));
        break;
      default:
        size = WINDOW_SIZES[random.nextInt(WINDOW_SIZES.length)];
        endEvery = size;
        endOffset = 0;
        shaped = EventTimeWindowing.fixed(Duration.millis(size));
    }
    lateness = LATENESSES[random.nextInt(LATENESSES.length)];
    int outOfOrderness = OUT_OF_ORDERNESS[random.nextInt(OUT_OF_ORDERNESS.length)];
    Duration idleFlush = Duration.millis(1_000 + random.nextInt(3) * 1_000L);
    sessions = shape == WindowKind.Shape.SESSIONS ? new SessionReference() : null;
    EventTimeWindowing configured =
        shaped.withAllowedLateness(Duration.millis(lateness)).withIdleFlush(idleFlush);
    windowing = random.nextInt(4) == 0 ? configured.withFinalPaneOnly() : configured;

    TestStream.Builder<String> builder = TestStream.create(StringUtf8Coder.of());
    TestStream.Builder<SourceBatch<String>> batchBuilder =
        TestStream.create(SourceBatch.SourceBatchCoder.of(StringUtf8Coder.of()));
    long watermark = START;
    builder = builder.advanceWatermarkTo(new Instant(watermark));
    batchBuilder = batchBuilder.advanceWatermarkTo(new Instant(watermark));
    long frontier = START;
    int sequence = 0;
    int lateWithinLateness = 0;
    int steps = 10 + random.nextInt(15);
    for (int step = 0; step < steps; step++) {
      List<TimestampedValue<String>> batch = new ArrayList<>();
      int records = 1 + random.nextInt(6);
      for (int i = 0; i < records; i++) {
        sequence++;
        int kind = random.nextInt(100);
        if (kind < 8) {
          String bad = kind < 4 ? "bad-" + sequence : "a,soon-" + sequence + ",1";
          batch.add(TimestampedValue.of(bad, new Instant(watermark)));
          expectedDeadLetters.add(bad);
          continue;
        }
        String key = KEYS[random.nextInt(KEYS.length)];
        long eventTime;
        if (sessions != null && kind < 22 && sessions.hasOpen(key)) {
          // At a session's edge: exactly a gap from its start or end, or a millisecond beyond.
          eventTime = Math.max(START, sessions.edgeOf(key, random));
        } else if (kind < 22) {
          // At an edge: the last or first millisecond of the window the watermark has just
          // closed, or of the windows on either side of the one it has just expired.
          long closedEnd = windowEndAtOrBelow(watermark);
          long expiredEnd = windowEndAtOrBelow(watermark - lateness);
          long expiringEnd = windowEndAtOrBelow(watermark - lateness + 1);
          long[] edges = {
            closedEnd - 1, closedEnd, expiredEnd - 1, expiredEnd, expiringEnd - 1, expiringEnd
          };
          eventTime = Math.max(START, edges[random.nextInt(edges.length)]);
        } else if (kind < 35) {
          // Far behind: often in a window that has already expired.
          eventTime = Math.max(START, watermark - random.nextInt(20_000));
        } else {
          // Around the frontier, out of order.
          frontier += random.nextInt(1500);
          eventTime = Math.max(START, frontier - random.nextInt(outOfOrderness));
        }
        String line = key + "," + eventTime + "," + sequence;
        batch.add(TimestampedValue.of(line, new Instant(eventTime)));
        if (sessions != null) {
          if (sessions.add(key, eventTime, sequence, watermark, line)) {
            lateWithinLateness++;
          }
          continue;
        }
        List<long[]> windows = WindowsHolding.of(windowing, eventTime);
        int missed = 0;
        for (long[] window : windows) {
          long windowEnd = window[1];
          if (windowEnd - 1 + lateness < watermark) {
            missed++;
            continue;
          }
          if (watermark >= windowEnd) {
            lateWithinLateness++;
          }
          String name = key + "," + window[0] + "," + windowEnd;
          long[] countAndSum = expectedFinal.computeIfAbsent(name, k -> new long[2]);
          countAndSum[0]++;
          countAndSum[1] += sequence;
          expectedCountedPairs++;
          expectedMax.merge(name, (long) sequence, Math::max);
        }
        if (missed > 0) {
          expectedLate.add(line);
          if (missed < windows.size()) {
            expectedPartlyLate++;
          }
        }
      }
      builder = addAll(builder, batch);
      batchBuilder = batchBuilder.addElements(asBatch(batch, watermark));
      if (processingTime && random.nextInt(3) == 0) {
        Duration passing = Duration.millis(random.nextInt(4_000));
        builder = builder.advanceProcessingTime(passing);
        batchBuilder = batchBuilder.advanceProcessingTime(passing);
      }
      if (random.nextInt(3) > 0) {
        watermark = Math.max(watermark, nextWatermark(random, frontier));
        builder = builder.advanceWatermarkTo(new Instant(watermark));
        batchBuilder = batchBuilder.advanceWatermarkTo(new Instant(watermark));
      }
    }
    if (sessions != null) {
      sessions.finishAll();
    }
    inputCount = sequence;
    expectedLateWithinLateness = lateWithinLateness;
    stream = builder.advanceWatermarkToInfinity();
    batches = batchBuilder.advanceWatermarkToInfinity();
  }

  /**
   * Where the watermark goes next: near the frontier, or, every other time, exactly at the end or
   * the expiry of the window there, or a millisecond either side.
   */
  private long nextWatermark(Random random, long frontier) {
    long near = frontier - 2000 + random.nextInt(8000);
    if (random.nextBoolean()) {
      return near;
    }
    long end = windowEndAtOrBelow(near);
    long[] edges = {end - 1, end, end + 1, end + lateness - 1, end + lateness, end + lateness + 1};
    return edges[random.nextInt(edges.length)];
  }

  /** The latest window end at or before {@code millis}: windows are aligned to the epoch. */
  private long windowEndAtOrBelow(long millis) {
    return millis - Math.floorMod(millis - endOffset, endEvery);
  }

  /** A batch at its earliest record's timestamp, as {@link SourceBatch}'s source emits it. */
  private static TimestampedValue<SourceBatch<String>> asBatch(
      List<TimestampedValue<String>> records, long watermark) {
    Instant earliest =
        records.stream().map(TimestampedValue::getTimestamp).min(Instant::compareTo).orElseThrow();
    return TimestampedValue.of(
        new SourceBatch<>(List.copyOf(records), new Instant(watermark)), earliest);
  }

  private static TestStream.Builder<String> addAll(
      TestStream.Builder<String> builder, List<TimestampedValue<String>> batch) {
    @SuppressWarnings({"unchecked", "rawtypes"})
    TimestampedValue<String>[] rest =
        batch.subList(1, batch.size()).toArray(new TimestampedValue[0]);
    return builder.addElements(batch.get(0), rest);
  }

  @Override
  public String toString() {
    return shape
        + " windows of "
        + size
        + " ms every "
        + endEvery
        + " ms, lateness "
        + lateness
        + " ms"
        + (windowing.finalPaneOnly() ? ", final panes only" : "");
  }

  /**
   * The rules of session windows, written here on their own: a record opens {@code [t, t + gap)};
   * open sessions of its key that overlap or touch it merge with it; a session expires when its
   * last millisecond plus the lateness is behind the watermark, and is gone: it never changes again
   * and no record joins it; a record that touches no open session and whose own window has expired
   * is late.
   */
  private final class SessionReference {
    /** Per key, its open sessions: {start, end, count, sum, largest value}. */
    private final Map<String, List<long[]>> open = new HashMap<>();

    boolean hasOpen(String key) {
      return !open.getOrDefault(key, List.of()).isEmpty();
    }

    /** A time exactly a gap from an open session's start or end, or a millisecond beyond. */
    long edgeOf(String key, Random random) {
      List<long[]> sessions = open.get(key);
      long[] session = sessions.get(random.nextInt(sessions.size()));
      long[] edges = {session[1], session[1] + 1, session[0] - size, session[0] - size - 1};
      return edges[random.nextInt(edges.length)];
    }

    /** Adds a record; returns whether it joined a session the watermark had closed. */
    boolean add(String key, long eventTime, int sequence, long watermark, String line) {
      List<long[]> sessions = open.computeIfAbsent(key, k -> new ArrayList<>());
      for (long[] session : List.copyOf(sessions)) {
        if (session[1] - 1 + lateness < watermark) {
          finish(key, session);
          sessions.remove(session);
        }
      }
      long end = eventTime + size;
      List<long[]> touched = new ArrayList<>();
      for (long[] session : sessions) {
        if (session[0] <= end && session[1] >= eventTime) {
          touched.add(session);
        }
      }
      if (touched.isEmpty() && end - 1 + lateness < watermark) {
        expectedLate.add(line);
        return false;
      }
      long[] merged = {eventTime, end, 1, sequence, sequence};
      for (long[] session : touched) {
        merged[0] = Math.min(merged[0], session[0]);
        merged[1] = Math.max(merged[1], session[1]);
        merged[2] += session[2];
        merged[3] += session[3];
        merged[4] = Math.max(merged[4], session[4]);
        sessions.remove(session);
      }
      sessions.add(merged);
      expectedCountedPairs++;
      return watermark >= merged[1];
    }

    void finishAll() {
      open.forEach((key, sessions) -> sessions.forEach(session -> finish(key, session)));
    }

    private void finish(String key, long[] session) {
      String name = key + "," + session[0] + "," + session[1];
      expectedFinal.put(name, new long[] {session[2], session[3]});
      expectedMax.put(name, session[4]);
    }
  }
}
