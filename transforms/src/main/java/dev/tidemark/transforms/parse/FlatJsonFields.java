package dev.tidemark.transforms.parse;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Finds the needed fields of a flat JSON object, the shape nearly every record has, without a
 * parser: one pass over the text, nothing allocated but the answer. It is written by hand because a
 * general parser, even Jackson's streaming one, tokenizes every value of every record, which is
 * most of a replay's reading thread, and no library reads a few fields of a short line for less.
 *
 * <p>It answers only for an object (whitespace around tokens allowed) whose every value is a string
 * without escapes or control characters, an integer of at most 18 digits without leading zeros,
 * {@code true}, {@code false} or {@code null}; a field given twice keeps its last value, and what
 * follows the object is ignored, as with Jackson ({@link JacksonFields}). For anything else
 * (escapes, fractions, exponents, nested values, malformed text) it returns null, and the record is
 * Jackson's, which also gives the reason a record is refused.
 */
final class FlatJsonFields {

  /** The kind of a value: a string, whose span is its text between the quotes. */
  static final int STRING = 1;

  /** The kind of a value: an integer, whose span is its digits (with the sign). */
  static final int INTEGER = 2;

  /** The kind of a value: {@code true}, {@code false} or {@code null}, whose span is the word. */
  static final int LITERAL = 3;

  private static final String[] LITERALS = {"true", "false", "null"};

  /** Digits of the longest integer read here: every 18-digit number fits a long. */
  private static final int MAX_DIGITS = 18;

  private FlatJsonFields() {}

  /**
   * Where the values of {@code fields} are in {@code raw}: for field {@code k}, {@code [3k]} is
   * where its value starts, {@code [3k + 1]} where it ends (exclusive), {@code [3k + 2]} its kind,
   * or 0 if the field is missing. Null if {@code raw} is not a flat object read here.
   */
  static int @Nullable [] spans(String raw, String[] fields) {
    int[] spans = new int[3 * fields.length];
    int length = raw.length();
    int at = skipWhitespace(raw, 0);
    if (at >= length || raw.charAt(at) != '{') {
      return null;
    }
    at = skipWhitespace(raw, at + 1);
    if (at < length && raw.charAt(at) == '}') {
      return spans;
    }
    while (true) {
      if (at >= length || raw.charAt(at) != '"') {
        return null;
      }
      int nameStart = at + 1;
      int nameEnd = endOfPlainString(raw, nameStart);
      if (nameEnd < 0) {
        return null;
      }
      at = skipWhitespace(raw, nameEnd + 1);
      if (at >= length || raw.charAt(at) != ':') {
        return null;
      }
      at = skipWhitespace(raw, at + 1);
      if (at >= length) {
        return null;
      }
      char first = raw.charAt(at);
      int kind =
          first == '"'
              ? STRING
              : first == '-' || (first >= '0' && first <= '9') ? INTEGER : LITERAL;
      int valueStart = kind == STRING ? at + 1 : at;
      int valueEnd =
          switch (kind) {
            case STRING -> endOfPlainString(raw, valueStart);
            case INTEGER -> endOfInteger(raw, valueStart);
            default -> endOfLiteral(raw, valueStart);
          };
      if (valueEnd < 0) {
        return null;
      }
      setSpan(spans, raw, nameStart, nameEnd, fields, valueStart, valueEnd, kind);
      at = kind == STRING ? valueEnd + 1 : valueEnd;
      at = skipWhitespace(raw, at);
      if (at >= length) {
        return null;
      }
      char next = raw.charAt(at);
      if (next == '}') {
        return spans;
      }
      if (next != ',') {
        return null;
      }
      at = skipWhitespace(raw, at + 1);
    }
  }

  /**
   * Records the value's span if the name {@code raw[nameStart, nameEnd)} is one of {@code fields}.
   */
  private static void setSpan(
      int[] spans,
      String raw,
      int nameStart,
      int nameEnd,
      String[] fields,
      int valueStart,
      int valueEnd,
      int kind) {
    int nameLength = nameEnd - nameStart;
    for (int k = 0; k < fields.length; k++) {
      if (fields[k].length() == nameLength
          && raw.regionMatches(nameStart, fields[k], 0, nameLength)) {
        spans[3 * k] = valueStart;
        spans[3 * k + 1] = valueEnd;
        spans[3 * k + 2] = kind;
        return;
      }
    }
  }

  /** The index after {@code true}, {@code false} or {@code null} at {@code at}, or -1. */
  private static int endOfLiteral(String raw, int at) {
    for (String literal : LITERALS) {
      if (raw.startsWith(literal, at)) {
        return at + literal.length();
      }
    }
    return -1;
  }

  /** The index of the closing quote of a string starting at {@code at}, or -1 if not plain. */
  private static int endOfPlainString(String raw, int at) {
    for (int i = at; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '"') {
        return i;
      }
      if (c == '\\' || c < 0x20) {
        return -1;
      }
    }
    return -1;
  }

  /**
   * The index after an integer starting at {@code at} ({@code -?(0|[1-9][0-9]*)}, at most {@link
   * #MAX_DIGITS} digits), or -1. A fraction or an exponent after it is not a comma or a brace, so
   * the object is left to Jackson.
   */
  private static int endOfInteger(String raw, int at) {
    int i = raw.charAt(at) == '-' ? at + 1 : at;
    int digitsStart = i;
    while (i < raw.length() && raw.charAt(i) >= '0' && raw.charAt(i) <= '9') {
      i++;
    }
    int digits = i - digitsStart;
    if (digits == 0 || digits > MAX_DIGITS || (digits > 1 && raw.charAt(digitsStart) == '0')) {
      return -1;
    }
    return i;
  }

  private static int skipWhitespace(String raw, int at) {
    int i = at;
    while (i < raw.length()) {
      char c = raw.charAt(i);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        break;
      }
      i++;
    }
    return i;
  }
}
