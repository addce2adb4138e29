package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code key,epochMillis[,value]} lines, like scenario S1's {@code 01,1586489566000}. A third
 * field, when {@link #withValue()} asks for it, is the whole number a sum adds up.
 */
public final class CsvEventFormat implements EventFormat {

  private static final long serialVersionUID = 1L;

  private final boolean hasValue;

  private CsvEventFormat(boolean hasValue) {
    this.hasValue = hasValue;
  }

  /** {@code key,epochMillis}. */
  public static CsvEventFormat keyAndTime() {
    return new CsvEventFormat(false);
  }

  /** {@code key,epochMillis,value}. */
  public CsvEventFormat withValue() {
    return new CsvEventFormat(true);
  }

  @Override
  public @Nullable String anotherFormat(String raw) {
    return formatThatReads(raw) == null
        ? null
        : "JSON objects, which --format=json reads (with --keyField and --timeField)";
  }

  @Override
  public @Nullable String formatThatReads(String raw) {
    return raw.stripLeading().startsWith("{") ? "json" : null;
  }

  @Override
  public Event parse(String raw) throws BadRecordException {
    String[] fields = raw.split(",", -1);
    int expected = hasValue ? 3 : 2;
    if (fields.length != expected) {
      throw new BadRecordException(
          "expected "
              + expected
              + " comma-separated fields ("
              + (hasValue ? "key,epochMillis,value" : "key,epochMillis")
              + "), found "
              + fields.length);
    }
    String key = fields[0].trim();
    if (key.isEmpty()) {
      throw new BadRecordException("field 'key' is empty");
    }
    long value = 0;
    if (hasValue) {
      try {
        value = Long.parseLong(fields[2].trim());
      } catch (NumberFormatException e) {
        throw new BadRecordException("field 'value': '" + fields[2] + "' is not a whole number");
      }
    }
    return new Event(EventKey.of(key), EventTimes.parse("epochMillis", fields[1]), value, raw);
  }
}
