package dev.tidemark.pipelines.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The strict decoding of Kafka values: valid bytes are their text, a real U+FFFD included, and
 * malformed bytes are refused, also where Java's lenient decoding would hide them behind one.
 */
class Utf8TextTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "ASCII, 7B2274223A317D",
    "characters of two and three and four bytes, C3A9E282AC F09F9880",
    "a real replacement character, 61EFBFBD62",
  })
  void validBytesAreTheirText(String what, String hex) {
    byte[] bytes = bytes(hex);

    assertThat(Utf8Text.decodeOrNull(bytes), equalTo(new String(bytes, StandardCharsets.UTF_8)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "a stray continuation byte, 61 80 62",
    "a character cut at the end, 61 E282",
    "an overlong encoding, C080",
    "an encoded surrogate, EDA080",
    "a bad byte beside a real replacement character, EFBFBD C328",
  })
  void malformedBytesAreRefused(String what, String hex) {
    assertThat(Utf8Text.decodeOrNull(bytes(hex)), nullValue());
  }

  private static byte[] bytes(String hex) {
    return HexFormat.of().parseHex(hex.replace(" ", ""));
  }
}
