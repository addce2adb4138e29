package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.parse.ArrivedLineParser;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.windowing.Expired;
import dev.tidemark.transforms.windowing.KeyedExpired;
import java.util.Comparator;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.SerializableComparator;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * A user's own records of one recording as the replay's steps read them: parsed by the user's
 * format, keyed by the user's function; late ones as {@link KeyedExpired}, the type {@code
 * AggregatePerWindow.intoResult} gives a live run's.
 *
 * @param <K> the user's key
 * @param <T> the user's record
 */
final class KeyedRecordType<K, T>
    extends ReplayRecordType<K, ArrivedRecord<T>, KeyedExpired<K, T>> {

  private static final long serialVersionUID = 1L;

  private static final Comparator<ArrivedRecord<?>> BY_ARRIVAL =
      Comparator.<ArrivedRecord<?>, Long>comparing(record -> record.arrivalWatermark().getMillis())
          .thenComparing(ArrivedRecord::position);

  private final ArrivedLineParser<T> parser;
  private final SerializableFunction<T, K> keyOf;
  private final Coder<K> keyCoder;
  private final Coder<T> recordCoder;

  KeyedRecordType(
      ArrivedLineParser<T> parser,
      SerializableFunction<T, K> keyOf,
      Coder<K> keyCoder,
      Coder<T> recordCoder) {
    this.parser = parser;
    this.keyOf = keyOf;
    this.keyCoder = keyCoder;
    this.recordCoder = recordCoder;
  }

  @Override
  ArrivedRecord<T> read(int input, ArrivedLine line, Instant now) throws BadRecordException {
    T record = parser.parse(line, now);
    return new ArrivedRecord<>(
        record, parser.eventTime(record), line.arrivalWatermark(), line.position());
  }

  @Override
  @Nullable String formatThatReads(int input, ArrivedLine line) {
    return parser.formatThatReads(line);
  }

  @Override
  K keyOf(ArrivedRecord<T> record) {
    return keyOf.apply(record.value());
  }

  @Override
  Instant arrivalWatermarkOf(ArrivedRecord<T> record) {
    return record.arrivalWatermark();
  }

  @Override
  Instant eventTimeOf(ArrivedRecord<T> record) {
    return record.eventTime();
  }

  @Override
  KeyedExpired<K, T> late(ArrivedRecord<T> record, IntervalWindow window, Instant watermark) {
    return new KeyedExpired<>(
        keyOf(record), new Expired<>(record.value(), record.eventTime(), window, watermark));
  }

  @Override
  SerializableComparator<ArrivedRecord<T>> arrivalOrder() {
    return (a, b) -> BY_ARRIVAL.compare(a, b);
  }

  /** The coder of the user's record. */
  Coder<T> valueCoder() {
    return recordCoder;
  }

  @Override
  Coder<K> keyCoder() {
    return keyCoder;
  }

  @Override
  Coder<ArrivedRecord<T>> recordCoder() {
    return new ArrivedRecord.ArrivedRecordCoder<>(recordCoder);
  }

  @Override
  Coder<KeyedExpired<K, T>> lateCoder() {
    return KeyedExpired.KeyedExpiredCoder.of(keyCoder, recordCoder);
  }
}
