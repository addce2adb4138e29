package dev.tidemark.transforms.parse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * JSON objects with configurable key, time and value fields.
 *
 * <pre>{@code
 * // S2: {"id":1,"name":"a","amount":1637800000000} -> key name, time amount, sum of id
 * JsonEventFormat.withKey("name").withTime("amount").withValue("id")
 * // S5: key (i, op), time t
 * JsonEventFormat.withKey("i", "op").withTime("t")
 * }</pre>
 *
 * <p>The key has the text of each key field as a part ({@link EventKey}); one shown with several
 * parts reads as the JSON array of their texts, e.g. {@code ["hitch_passenger_order","es_sink"]}.
 * The time field holds epoch milliseconds, as a number or a numeric string. The value field, if
 * any, is a whole number.
 *
 * <p>Only the fields the format needs become values, the others are skipped. The result, and the
 * reason a record is refused, are those of reading the whole record as a tree with Jackson (a field
 * given twice keeps its last value; content after the object is ignored).
 */
public final class JsonEventFormat implements EventFormat {

  private static final long serialVersionUID = 1L;

  /** What {@link #flatWholeNumber} returns for a value that is not a plain whole number. */
  private static final long NOT_FLAT = Long.MIN_VALUE;

  private final List<String> keyFields;
  private final String timeField;
  private final @Nullable String valueField;

  /** The fields read from a record, each once: the key fields, the time field, the value field. */
  private final String[] neededFields;

  /** Where the key fields, the time field and the value field are in {@link #neededFields}. */
  private final int[] keyIndexes;

  private final int timeIndex;
  private final int valueIndex;

  private JsonEventFormat(List<String> keyFields, String timeField, @Nullable String valueField) {
    this.keyFields = keyFields;
    this.timeField = timeField;
    this.valueField = valueField;
    List<String> needed = new ArrayList<>();
    for (String field : keyFields) {
      addOnce(needed, field);
    }
    addOnce(needed, timeField);
    if (valueField != null) {
      addOnce(needed, valueField);
    }
    this.neededFields = needed.toArray(String[]::new);
    this.keyIndexes = keyFields.stream().mapToInt(needed::indexOf).toArray();
    this.timeIndex = needed.indexOf(timeField);
    this.valueIndex = valueField == null ? -1 : needed.indexOf(valueField);
  }

  private static void addOnce(List<String> fields, String field) {
    if (!fields.contains(field)) {
      fields.add(field);
    }
  }

  /** Starts a format whose key is {@code keyFields}; the time field comes next. */
  public static Builder withKey(String... keyFields) {
    if (keyFields.length == 0) {
      throw new IllegalArgumentException("JSON key fields: none given; name at least one");
    }
    return new Builder(List.of(keyFields));
  }

  /** The second step of {@link #withKey}. */
  public static final class Builder {
    private final List<String> keyFields;

    private Builder(List<String> keyFields) {
      this.keyFields = keyFields;
    }

    /** The field with the event time in epoch milliseconds. */
    public JsonEventFormat withTime(String timeField) {
      return new JsonEventFormat(keyFields, timeField, null);
    }
  }

  /** The whole-number field that a sum adds up. */
  public JsonEventFormat withValue(String valueField) {
    return new JsonEventFormat(keyFields, timeField, valueField);
  }

  @Override
  public @Nullable String anotherFormat(String raw) {
    return formatThatReads(raw) == null
        ? null
        : "comma-separated lines, which --format=csv reads (key,epochMillis)";
  }

  @Override
  public @Nullable String formatThatReads(String raw) {
    String text = raw.stripLeading();
    return !text.isEmpty() && !text.startsWith("{") && text.contains(",") ? "csv" : null;
  }

  @Override
  public Event parse(String raw) throws BadRecordException {
    @Nullable Event flat = parseFlat(raw);
    return flat != null ? flat : parseWithJackson(raw);
  }

  /**
   * The event of a flat object with every needed field a plain value ({@link FlatJsonFields}),
   * nearly every record, read without a parser; null for any other record, and for any record that
   * might be refused, so that the reason is Jackson's.
   */
  @Nullable Event parseFlat(String raw) throws BadRecordException {
    int @Nullable [] spans = FlatJsonFields.spans(raw, neededFields);
    if (spans == null) {
      return null;
    }
    @Nullable EventKey key = flatKey(raw, spans);
    long time = flatWholeNumber(raw, spans, timeIndex);
    long value = valueField == null ? 0 : flatWholeNumber(raw, spans, valueIndex);
    if (key == null || time == NOT_FLAT || value == NOT_FLAT) {
      return null;
    }
    return new Event(key, EventTimes.check(timeField, time), value, raw);
  }

  /** The event of any record, read with Jackson; or why it is refused. */
  Event parseWithJackson(String raw) throws BadRecordException {
    JsonNode[] values = JacksonFields.read(raw, neededFields);
    long value = valueField == null ? 0 : wholeNumber(values, valueIndex);
    return new Event(
        key(values), EventTimes.check(timeField, wholeNumber(values, timeIndex)), value, raw);
  }

  /**
   * The key as {@link #key(JsonNode[])} makes it, or null. Strings read by {@link FlatJsonFields}
   * hold nothing JSON escapes, and the text of an integer or of {@code true} or {@code false} is
   * the word itself, except {@code -0}, which Jackson reads as 0.
   */
  private @Nullable EventKey flatKey(String raw, int[] spans) {
    String[] parts = new String[keyIndexes.length];
    for (int i = 0; i < parts.length; i++) {
      int k = keyIndexes[i];
      int kind = spans[3 * k + 2];
      int start = spans[3 * k];
      int end = spans[3 * k + 1];
      if (kind == 0
          || (kind == FlatJsonFields.LITERAL && raw.charAt(start) == 'n')
          || (kind == FlatJsonFields.INTEGER && raw.startsWith("-0", start) && end - start == 2)) {
        return null;
      }
      parts[i] = raw.substring(start, end);
    }
    return EventKey.of(parts);
  }

  /** The whole number as {@link #wholeNumber} reads it, or {@link #NOT_FLAT}. */
  private static long flatWholeNumber(String raw, int[] spans, int field) {
    int start = spans[3 * field];
    int end = spans[3 * field + 1];
    switch (spans[3 * field + 2]) {
      case FlatJsonFields.INTEGER:
        return Long.parseLong(raw, start, end, 10);
      case FlatJsonFields.STRING:
        try {
          // Long.MIN_VALUE, which is NOT_FLAT, goes to Jackson too, and is refused as a time.
          return Long.parseLong(raw.substring(start, end).trim());
        } catch (NumberFormatException e) {
          return NOT_FLAT;
        }
      default:
        return NOT_FLAT;
    }
  }

  private EventKey key(JsonNode[] values) throws BadRecordException {
    String[] parts = new String[keyIndexes.length];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = text(values, keyIndexes[i]);
    }
    return EventKey.of(parts);
  }

  /** The text of needed field {@code k}, as Jackson gives it, or why there is none. */
  private String text(JsonNode[] values, int k) throws BadRecordException {
    String field = neededFields[k];
    JsonNode node = values[k];
    if (node == null || node.isNull()) {
      throw new BadRecordException("missing field '" + field + "'");
    }
    if (!node.isValueNode()) {
      throw new BadRecordException("field '" + field + "' is not a text or a number");
    }
    return node.asText();
  }

  /** The whole number in needed field {@code k}, or why it is not one. */
  private long wholeNumber(JsonNode[] values, int k) throws BadRecordException {
    String field = neededFields[k];
    JsonNode node = values[k];
    if (node == null || node.isNull()) {
      throw new BadRecordException("missing field '" + field + "'");
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.asLong();
    }
    if (node.isTextual()) {
      try {
        return Long.parseLong(node.asText().trim());
      } catch (NumberFormatException e) {
        // Falls through to the error below.
      }
    }
    throw new BadRecordException("field '" + field + "': " + node + " is not a whole number");
  }
}
