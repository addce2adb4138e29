package dev.tidemark.transforms.parse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.tidemark.transforms.model.Event;
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
 */
public final class JsonEventFormat implements EventFormat {

  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> keyFields;
  private final String timeField;
  private final @Nullable String valueField;

  private JsonEventFormat(List<String> keyFields, String timeField, @Nullable String valueField) {
    this.keyFields = keyFields;
    this.timeField = timeField;
    this.valueField = valueField;
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
    JsonNode root;
    try {
      root = JSON.readTree(raw);
    } catch (JsonProcessingException e) {
      throw new BadRecordException("not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new BadRecordException("not a JSON object");
    }
    long value = valueField == null ? 0 : wholeNumber(root, valueField);
    return new Event(
        key(root), EventTimes.check(timeField, wholeNumber(root, timeField)), value, raw);
  }

  private String key(JsonNode root) throws BadRecordException {
    if (keyFields.size() == 1) {
      return text(root, keyFields.get(0));
    }
    ArrayNode key = JSON.createArrayNode();
    for (String field : keyFields) {
      key.add(text(root, field));
    }
    return key.toString();
  }

  private static String text(JsonNode root, String field) throws BadRecordException {
    JsonNode node = root.get(field);
    if (node == null || node.isNull()) {
      throw new BadRecordException("missing field '" + field + "'");
    }
    if (!node.isValueNode()) {
      throw new BadRecordException("field '" + field + "' is not a text or a number");
    }
    return node.asText();
  }

  private static long wholeNumber(JsonNode root, String field) throws BadRecordException {
    JsonNode node = root.get(field);
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
