package dev.tidemark.transforms.parse;

import com.fasterxml.jackson.databind.JsonNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The texts of a record's named fields, for a format that types them itself (a SQL schema's
 * columns): a JSON object's, flat ones read without a parser ({@link FlatJsonFields}) and any other
 * with Jackson ({@link JacksonFields}), which gives the reason when it refuses one; or a CSV
 * line's, split already. A flat JSON object's integer is read in place ({@link #wholeNumber}),
 * without its text: a replay reads every record on one thread, and most have one.
 */
public final class FieldTexts {

  private final @Nullable String raw;
  private final int @Nullable [] spans;
  private final @Nullable String @Nullable [] texts;

  private FieldTexts(
      @Nullable String raw, int @Nullable [] spans, @Nullable String @Nullable [] texts) {
    this.raw = raw;
    this.spans = spans;
    this.texts = texts;
  }

  /**
   * The fields {@code fields} of the JSON object {@code raw}, in that order.
   *
   * @throws BadRecordException when {@code raw} is not a JSON object, or a field holds an object or
   *     an array
   */
  public static FieldTexts ofJson(String raw, String[] fields) throws BadRecordException {
    int @Nullable [] spans = FlatJsonFields.spans(raw, fields);
    return spans != null
        ? new FieldTexts(raw, spans, null)
        : new FieldTexts(null, null, jacksonTexts(raw, fields));
  }

  /**
   * Fields whose texts are {@code texts}, in order, null where a field is {@code NULL}; the array
   * is theirs from then on, not copied, as a record's parse makes one for each record.
   */
  public static FieldTexts of(@Nullable String[] texts) {
    return new FieldTexts(null, null, texts);
  }

  /**
   * The text of field {@code k}: a string's value, a number's or a literal's word; null where the
   * field is missing or {@code null}.
   */
  public @Nullable String text(int k) {
    if (spans == null) {
      return texts[k];
    }
    int kind = spans[3 * k + 2];
    int start = spans[3 * k];
    if (kind == 0 || (kind == FlatJsonFields.LITERAL && raw.charAt(start) == 'n')) {
      return null;
    }
    return raw.substring(start, spans[3 * k + 1]);
  }

  /** Whether field {@code k} is an integer that {@link #wholeNumber} reads in place. */
  public boolean isWholeNumber(int k) {
    return spans != null && spans[3 * k + 2] == FlatJsonFields.INTEGER;
  }

  /** Field {@code k}'s integer, which {@link #isWholeNumber} says is one: it fits a long. */
  public long wholeNumber(int k) {
    if (!isWholeNumber(k)) {
      throw new IllegalStateException("field " + k + " is not an integer read in place");
    }
    return Long.parseLong(raw, spans[3 * k], spans[3 * k + 1], 10);
  }

  /**
   * Whether {@code raw}, a JSON object, has the field {@code field}, {@code null} or not: for a
   * reason that tells a null field from a missing one.
   *
   * @throws BadRecordException when {@code raw} is not a JSON object
   */
  public static boolean jsonHas(String raw, String field) throws BadRecordException {
    return JacksonFields.read(raw, new String[] {field})[0] != null;
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
