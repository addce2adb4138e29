package dev.tidemark.transforms.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import org.apache.beam.sdk.transforms.SerializableFunction;

/**
 * The text of one top-level field of a JSON record, read with Jackson's streaming parser (nothing
 * else is built); empty when the record is not a JSON object or the field is missing or not a
 * scalar. For the partition a recorded line came from ({@code --partitionField}).
 */
public final class JsonFieldText implements SerializableFunction<String, String> {

  private static final long serialVersionUID = 1L;
  private static final JsonFactory JSON = new JsonFactory();

  private final String field;

  private JsonFieldText(String field) {
    this.field = field;
  }

  /** Reads {@code field}. */
  public static JsonFieldText of(String field) {
    return new JsonFieldText(field);
  }

  @Override
  public String apply(String line) {
    try (JsonParser parser = JSON.createParser(line)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return "";
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        boolean wanted = field.equals(parser.currentName());
        JsonToken value = parser.nextToken();
        if (wanted) {
          return value != null && value.isScalarValue() && value != JsonToken.VALUE_NULL
              ? parser.getText()
              : "";
        }
        parser.skipChildren();
      }
      return "";
    } catch (IOException e) {
      return "";
    }
  }
}
