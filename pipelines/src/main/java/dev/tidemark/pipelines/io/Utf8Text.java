package dev.tidemark.pipelines.io;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Strict UTF-8 decoding for {@link KafkaText}: bytes that are not UTF-8 are a reason, not
 * replacement characters. Kafka's {@code StringDeserializer} replaces them silently, so a record
 * whose bytes are broken inside a JSON string would be counted with a mangled value; decoded here,
 * it is a dead letter that says which byte is wrong.
 */
final class Utf8Text {

  private static final char REPLACEMENT = '\uFFFD';

  private Utf8Text() {}

  /**
   * The text of {@code bytes}, or null when they are not UTF-8. Java's own decoding is much cheaper
   * than a strict decoder, and it puts U+FFFD for every malformed sequence: text without U+FFFD
   * came from valid bytes, and only text with one (malformed, or a real U+FFFD) is decoded again
   * strictly, to tell which.
   */
  static @Nullable String decodeOrNull(byte[] bytes) {
    String lenient = new String(bytes, StandardCharsets.UTF_8);
    if (lenient.indexOf(REPLACEMENT) < 0) {
      return lenient;
    }
    try {
      return strictDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Why {@code bytes}, which {@link #decodeOrNull} refused, are not UTF-8: the first bad byte. */
  static String reason(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharsetDecoder decoder = strictDecoder();
    int position = 0;
    try {
      decoder.decode(in);
    } catch (CharacterCodingException e) {
      // The decoder stops at the first malformed sequence.
      position = in.position();
    }
    int first = position < bytes.length ? bytes[position] & 0xff : -1;
    return "not UTF-8: byte "
        + position
        + " of "
        + bytes.length
        + (first < 0 ? " ends a character early" : String.format(" (0x%02X) is malformed", first))
        + "; the record is shown with replacement characters";
  }

  /** The text of {@code bytes}, with U+FFFD for every malformed sequence; for a dead letter. */
  static String lossy(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static CharsetDecoder strictDecoder() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }
}
