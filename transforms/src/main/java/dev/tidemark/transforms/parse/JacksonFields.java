package dev.tidemark.transforms.parse;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads the needed fields of any JSON object with Jackson's streaming parser: only those fields
 * become values, the others are skipped. The values, and the reason a record is refused, are those
 * of reading the whole record as a tree (a field given twice keeps its last value; content after
 * the object is ignored).
 */
final class JacksonFields {

  private static final ObjectMapper JSON = new ObjectMapper();

  private JacksonFields() {}

  /** The values of {@code fields} in {@code raw}, in that order; null where missing. */
  static JsonNode[] read(String raw, String[] fields) throws BadRecordException {
    JsonNode[] values = new JsonNode[fields.length];
    try (JsonParser parser = JSON.createParser(raw)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new BadRecordException("not a JSON object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        int needed = indexOf(parser.currentName(), fields);
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

  private static int indexOf(String name, String[] fields) {
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].equals(name)) {
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
}
