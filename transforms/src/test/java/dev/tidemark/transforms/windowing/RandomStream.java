package dev.tidemark.transforms.windowing;

import dev.tidemark.transforms.model.SourceBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * A seeded random stream of {@code key,epochMillis,sequence} lines with out-of-order, late and
 * malformed records and watermark advances, as a {@link TestStream}, together with what a
 * straightforward reference computation says must come out of it: the records that are late (their
 * window had expired under the watermark current when they were added), the malformed ones, and
 * each (key, window)'s final count and sum.
 */
final class RandomStream {

  private static final String[] KEYS = {"a", "b", "c"};

  /** Where event time starts: a real epoch millisecond, as the clock-skew guard wants. */
  private static final long START = 1_600_000_000_000L;

  final TestStream<String> stream;

  /**
   * The same records in the same order, each step's records as one {@link SourceBatch} whose bound
   * is the watermark they were added at: what a batching source gives.
   */
  final TestStream<SourceBatch<String>> batches;

  final int inputCount;
  final Set<String> expectedLate = new HashSet<>();
  final Set<String> expectedDeadLetters = new HashSet<>();

  /** "key,windowStart" -> {count, sum}. */
  final Map<String, long[]> expectedFinal = new HashMap<>();

  RandomStream(long seed, EventTimeWindowing windowing) {
    Random random = new Random(seed);
    TestStream.Builder<String> builder = TestStream.create(StringUtf8Coder.of());
    TestStream.Builder<SourceBatch<String>> batchBuilder =
        TestStream.create(SourceBatch.SourceBatchCoder.of(StringUtf8Coder.of()));
    Instant watermark = new Instant(START);
    builder = builder.advanceWatermarkTo(watermark);
    batchBuilder = batchBuilder.advanceWatermarkTo(watermark);
    long frontier = START;
    int sequence = 0;
    int steps = 10 + random.nextInt(15);
    for (int step = 0; step < steps; step++) {
      List<TimestampedValue<String>> batch = new ArrayList<>();
      int size = 1 + random.nextInt(6);
      for (int i = 0; i < size; i++) {
        sequence++;
        int kind = random.nextInt(100);
        if (kind < 8) {
          String bad = kind < 4 ? "bad-" + sequence : "a,soon-" + sequence + ",1";
          batch.add(TimestampedValue.of(bad, watermark));
          expectedDeadLetters.add(bad);
          continue;
        }
        long eventTime;
        if (kind < 25) {
          // Far behind: often in a window that has already expired.
          eventTime = Math.max(START, watermark.getMillis() - random.nextInt(20_000));
        } else {
          // Around the frontier, out of order by up to 3 s.
          frontier += random.nextInt(1500);
          eventTime = Math.max(START, frontier - random.nextInt(3000));
        }
        String key = KEYS[random.nextInt(KEYS.length)];
        String line = key + "," + eventTime + "," + sequence;
        batch.add(TimestampedValue.of(line, new Instant(eventTime)));
        IntervalWindow window = windowing.windowOf(new Instant(eventTime));
        if (windowing.isExpired(window, watermark)) {
          expectedLate.add(line);
        } else {
          long[] countAndSum =
              expectedFinal.computeIfAbsent(
                  key + "," + window.start().getMillis(), k -> new long[2]);
          countAndSum[0]++;
          countAndSum[1] += sequence;
        }
      }
      builder = addAll(builder, batch);
      batchBuilder = batchBuilder.addElements(asBatch(batch, watermark));
      if (random.nextInt(3) > 0) {
        long advance = random.nextInt(8000);
        watermark = new Instant(Math.max(watermark.getMillis(), frontier - 2000 + advance));
        builder = builder.advanceWatermarkTo(watermark);
        batchBuilder = batchBuilder.advanceWatermarkTo(watermark);
      }
    }
    inputCount = sequence;
    stream = builder.advanceWatermarkToInfinity();
    batches = batchBuilder.advanceWatermarkToInfinity();
  }

  /** A batch at its earliest record's timestamp, as {@link SourceBatch}'s source emits it. */
  private static TimestampedValue<SourceBatch<String>> asBatch(
      List<TimestampedValue<String>> records, Instant watermark) {
    Instant earliest =
        records.stream().map(TimestampedValue::getTimestamp).min(Instant::compareTo).orElseThrow();
    return TimestampedValue.of(new SourceBatch<>(List.copyOf(records), watermark), earliest);
  }

  private static TestStream.Builder<String> addAll(
      TestStream.Builder<String> builder, List<TimestampedValue<String>> batch) {
    @SuppressWarnings({"unchecked", "rawtypes"})
    TimestampedValue<String>[] rest =
        batch.subList(1, batch.size()).toArray(new TimestampedValue[0]);
    return builder.addElements(batch.get(0), rest);
  }
}
