package dev.tidemark.transforms.parse;

import com.fasterxml.jackson.databind.JsonNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The texts of a JSON record's named fields, for a format that types them itself (a SQL schema's
 * columns): a flat record read without a parser ({@link FlatJsonFields}), any other with Jackson
 * ({@link JacksonFields}), which gives the reason when it refuses one.
 */
public final class JsonFieldTexts {

  private JsonFieldTexts() {}

  /**
   * The text of each of {@code fields} in {@code raw}, in that order: a string's value, a number's
   * or a literal's word; null where the field is missing or {@code null}.
   *
   * @throws BadRecordException when {@code raw} is not a JSON object, or a field holds an object or
   *     an array
   */
  public static @Nullable String[] read(String raw, String[] fields) throws BadRecordException {
    int @Nullable [] spans = FlatJsonFields.spans(raw, fields);
    return spans != null ? flatTexts(raw, fields, spans) : jacksonTexts(raw, fields);
  }

  /**
   * Whether {@code raw}, a JSON object, has the field {@code field}, {@code null} or not: for a
   * reason that tells a null field from a missing one.
   *
   * @throws BadRecordException when {@code raw} is not a JSON object
   */
  public static boolean has(String raw, String field) throws BadRecordException {
    return JacksonFields.read(raw, new String[] {field})[0] != null;
  }

  private static @Nullable String[] flatTexts(String raw, String[] fields, int[] spans) {
    @Nullable String[] texts = new String[fields.length];
    for (int k = 0; k < fields.length; k++) {
      int kind = spans[3 * k + 2];
      int start = spans[3 * k];
      if (kind != 0 && !(kind == FlatJsonFields.LITERAL && raw.charAt(start) == 'n')) {
        texts[k] = raw.substring(start, spans[3 * k + 1]);
      }
    }
    return texts;
  }

  private static @Nullable String[] jacksonTexts(String raw, String[] fields)
      throws BadRecordException {
    JsonNode[] values = JacksonFields.read(raw, fields);
    @Nullable String[] texts = new String[fields.length];
    for (int k = 0; k < fields.length; k++) {
      JsonNode node = values[k];
      if (node == null || node.isNull()) {
        continue;
      }
      if (!node.isValueNode()) {
        throw new BadRecordException(
            "field '" + fields[k] + "' is not a text, a number or a boolean");
      }
      texts[k] = node.asText();
    }
    return texts;
  }
}
