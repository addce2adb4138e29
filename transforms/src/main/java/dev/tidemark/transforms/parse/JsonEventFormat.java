package dev.tidemark.transforms.parse;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.tidemark.transforms.model.Event;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * JSON objects with configurable key, time and value fields, parsed with Jackson.
 *
 * <pre>{@code
 * // S2: {"id":1,"name":"a","amount":1637800000000} -> key name, time amount, sum of id
 * JsonEventFormat.withKey("name").withTime("amount").withValue("id")
 * // S5: key (i, op), time t
 * JsonEventFormat.withKey("i", "op").withTime("t")
 * }</pre>
 *
 * <p>One key field gives its text as the key; several give a JSON array of their texts, e.g. {@code
 * ["hitch_passenger_order","es_sink"]}. The time field holds epoch milliseconds, as a number or a
 * numeric string. The value field, if any, is a whole number.
 *
 * <p>A record is read with Jackson's streaming parser: only the fields the format needs become
 * values, the others are skipped, and a composite key is written without a serializer. The result,
 * and the reason a record is refused, are those of reading the whole record as a tree (a field
 * given twice keeps its last value; content after the object is ignored).
 */
public final class JsonEventFormat implements EventFormat {

  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> keyFields;
  private final String timeField;
  private final @Nullable String valueField;

  /**
   * The fields read from a record, each once: the key fields, the time field, the value field.
   * Interned, as Jackson's field names are, so most comparisons are by reference.
   */
  private final String[] neededFields;

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
    this.neededFields = needed.stream().map(String::intern).toArray(String[]::new);
  }

  /** Made again after deserialization, which does not intern strings. */
  private Object readResolve() {
    return new JsonEventFormat(keyFields, timeField, valueField);
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
  public Event parse(String raw) throws BadRecordException {
    JsonNode[] values = neededValues(raw);
    long value = valueField == null ? 0 : wholeNumber(values, valueField);
    return new Event(
        key(values), EventTimes.check(timeField, wholeNumber(values, timeField)), value, raw);
  }

  /** The values of {@link #neededFields} in {@code raw}, in that order; null where missing. */
  private JsonNode[] neededValues(String raw) throws BadRecordException {
    JsonNode[] values = new JsonNode[neededFields.length];
    try (JsonParser parser = JSON.createParser(raw)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new BadRecordException("not a JSON object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        int needed = indexOfField(parser.currentName());
        parser.nextToken();
        if (needed < 0) {
          parser.skipChildren();
        } else {
          values[needed] = valueAt(parser);
        }
      }
    } catch (JsonProcessingException e) {
      throw new BadRecordException("not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("reading a record from memory", e);
    }
    return values;
  }

  /** Where {@code name} is in {@link #neededFields}, or -1. */
  private int indexOfField(String name) {
    for (int i = 0; i < neededFields.length; i++) {
      if (neededFields[i] == name) {
        return i;
      }
    }
    for (int i = 0; i < neededFields.length; i++) {
      if (neededFields[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The value at the parser's current token, as reading the record as a tree would give it. A
   * scalar is made here directly: asking the mapper for a tree looks up its deserializer each time,
   * which costs more than the rest of the record.
   */
  private static JsonNode valueAt(JsonParser parser) throws IOException {
    JsonNodeFactory nodes = JSON.getNodeFactory();
    switch (parser.currentToken()) {
      case VALUE_STRING:
        return nodes.textNode(parser.getText());
      case VALUE_NUMBER_INT:
        return switch (parser.getNumberType()) {
          case INT -> nodes.numberNode(parser.getIntValue());
          case LONG -> nodes.numberNode(parser.getLongValue());
          default -> nodes.numberNode(parser.getBigIntegerValue());
        };
      case VALUE_TRUE:
      case VALUE_FALSE:
        return nodes.booleanNode(parser.getBooleanValue());
      case VALUE_NULL:
        return nodes.nullNode();
      default:
        return parser.readValueAsTree();
    }
  }

  private String key(JsonNode[] values) throws BadRecordException {
    if (keyFields.size() == 1) {
      return text(values, keyFields.get(0));
    }
    // The compact JSON array Jackson would write, without building a node and a serializer.
    String[] texts = new String[keyFields.size()];
    int length = 1 + 3 * texts.length;
    boolean escape = false;
    for (int i = 0; i < texts.length; i++) {
      texts[i] = text(values, keyFields.get(i));
      length += texts[i].length();
      escape |= needsEscaping(texts[i]);
    }
    StringBuilder key = new StringBuilder(length).append('[');
    for (int i = 0; i < texts.length; i++) {
      key.append(i == 0 ? "\"" : ",\"");
      if (escape) {
        JsonStringEncoder.getInstance().quoteAsString(texts[i], key);
      } else {
        key.append(texts[i]);
      }
      key.append('"');
    }
    return key.append(']').toString();
  }

  /** Whether JSON escapes any character of {@code text}: a quote, a backslash, a control one. */
  private static boolean needsEscaping(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\') {
        return true;
      }
    }
    return false;
  }

  private JsonNode field(JsonNode[] values, String field) {
    return values[indexOfField(field)];
  }

  private String text(JsonNode[] values, String field) throws BadRecordException {
    JsonNode node = field(values, field);
    if (node == null || node.isNull()) {
      throw new BadRecordException("missing field '" + field + "'");
    }
    if (!node.isValueNode()) {
      throw new BadRecordException("field '" + field + "' is not a text or a number");
    }
    return node.asText();
  }

  private long wholeNumber(JsonNode[] values, String field) throws BadRecordException {
    JsonNode node = field(values, field);
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
