package dev.tidemark.transforms.parse;

import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The format of {@link RecordFormat#of} and {@link RecordFormat#json}: a parse function, an event
 * time function, and the type parsed into when it is known.
 */
final class TextRecordFormat<T> implements RecordFormat<T> {

  private static final long serialVersionUID = 1L;

  private final RecordFormat.TextParser<T> parser;
  private final SerializableFunction<T, Instant> eventTime;
  private final @Nullable TypeDescriptor<T> type;

  TextRecordFormat(
      RecordFormat.TextParser<T> parser,
      SerializableFunction<T, Instant> eventTime,
      @Nullable TypeDescriptor<T> type) {
    this.parser = parser;
    this.eventTime = eventTime;
    this.type = type;
  }

  @Override
  public T parse(String raw) throws BadRecordException {
    return parser.parse(raw);
  }

  @Override
  public Instant eventTime(T record) {
    return eventTime.apply(record);
  }

  @Override
  public @Nullable TypeDescriptor<T> recordType() {
    return type;
  }
}
