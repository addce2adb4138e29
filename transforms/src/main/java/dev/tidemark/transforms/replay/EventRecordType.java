package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.parse.ArrivedLineParser;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.windowing.Expired;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.SerializableComparator;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * tidemark's own events as the replay's steps read them: each with the number of its recording, so
 * that a join tells its sides apart; late ones as {@code Expired<Event>}s with that number.
 */
final class EventRecordType
    extends ReplayRecordType<EventKey, KV<Integer, Event>, KV<Integer, Expired<Event>>> {

  private static final long serialVersionUID = 1L;

  private static final Comparator<KV<Integer, Event>> BY_ARRIVAL =
      Comparator.<KV<Integer, Event>, Long>comparing(
              record -> record.getValue().arrivalWatermark().getMillis())
          .thenComparing(KV::getKey)
          .thenComparing(record -> record.getValue().position());

  /** Late records in the order a live run would have seen them: by arrival watermark, then line. */
  static final SerializableComparator<KV<Integer, Event>> ARRIVAL_ORDER =
      (a, b) -> BY_ARRIVAL.compare(a, b);

  private final List<ArrivedLineParser<Event>> parsers;

  /** Reads input number {@code i} with {@code parsers.get(i)}. */
  EventRecordType(List<ArrivedLineParser<Event>> parsers) {
    this.parsers = List.copyOf(parsers);
  }

  @Override
  KV<Integer, Event> read(int input, ArrivedLine line, Instant now) throws BadRecordException {
    return KV.of(input, parsers.get(input).parse(line, now));
  }

  @Override
  @Nullable String formatThatReads(int input, ArrivedLine line) {
    return parsers.get(input).formatThatReads(line);
  }

  @Override
  EventKey keyOf(KV<Integer, Event> record) {
    return record.getValue().key();
  }

  @Override
  Instant arrivalWatermarkOf(KV<Integer, Event> record) {
    return record.getValue().arrivalWatermark();
  }

  @Override
  Instant eventTimeOf(KV<Integer, Event> record) {
    return record.getValue().eventTime();
  }

  @Override
  KV<Integer, Expired<Event>> late(
      KV<Integer, Event> record, IntervalWindow window, Instant watermark) {
    Event event = record.getValue();
    return KV.of(record.getKey(), new Expired<>(event, event.eventTime(), window, watermark));
  }

  @Override
  SerializableComparator<KV<Integer, Event>> arrivalOrder() {
    return ARRIVAL_ORDER;
  }

  @Override
  Coder<EventKey> keyCoder() {
    return EventKey.Coder.of();
  }

  @Override
  Coder<KV<Integer, Event>> recordCoder() {
    return KvCoder.of(VarIntCoder.of(), Event.Coder.of());
  }

  @Override
  Coder<KV<Integer, Expired<Event>>> lateCoder() {
    return KvCoder.of(VarIntCoder.of(), Expired.ExpiredCoder.of(Event.Coder.of()));
  }
}
