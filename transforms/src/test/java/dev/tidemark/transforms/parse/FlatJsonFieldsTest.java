package dev.tidemark.transforms.parse;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.tidemark.transforms.io.LineShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The flat records that {@link JsonEventFormat} reads without a parser ({@link FlatJsonFields})
 * give the event Jackson gives, and every other record goes to Jackson; and the records of
 * tidemark's scenarios are read the fast way.
 */
class FlatJsonFieldsTest {

  private static final List<JsonEventFormat> FORMATS =
      List.of(
          JsonEventFormat.withKey("i", "op").withTime("t"),
          JsonEventFormat.withKey("i").withTime("t").withValue("n"),
          JsonEventFormat.withKey("op", "t").withTime("t").withValue("op"));

  /** Pieces of JSON, valid and not, that random records are made of. */
  private static final List<String> PIECES =
      List.of(
          "{",
          "}",
          "{",
          "}",
          ",",
          ",",
          ",",
          ":",
          ":",
          ":",
          " ",
          "\t",
          "\n",
          "\"i\"",
          "\"op\"",
          "\"t\"",
          "\"n\"",
          "\"x\"",
          "\"\"",
          "\"i \"",
          "\"a\\\"b\"",
          "\"\\u0041\"",
          "\"ab\"",
          "\"été\"",
          "\"\u0001\"",
          "\"",
          "0",
          "-0",
          "7",
          "-12",
          "01",
          "1.5",
          "2e3",
          "2E3",
          "-",
          "true",
          "false",
          "null",
          "nul",
          "[1]",
          "{\"y\":1}",
          "\\",
          "x",
          "\" 42 \"",
          "\"-0\"",
          "2147483648",
          "123456789012345678",
          "1234567890123456789",
          "9223372036854775808",
          "\"-9223372036854775808\"",
          "1699999999520",
          "\"1699999999520\"");

  /** Values of the random flat objects: every kind the fast way reads, and edge cases of each. */
  private static final List<String> VALUES =
      List.of(
          "\"ab\"",
          "\"été\"",
          "\"\"",
          "\" 42 \"",
          "\"-0\"",
          "\"x1\"",
          "\"-9223372036854775808\"",
          "true",
          "false",
          "null",
          "0",
          "-0",
          "7",
          "-12",
          "2147483648",
          "123456789012345678",
          "1699999999520",
          "\"1699999999520\"",
          "-1699999999520");

  @Test
  void aFlatRecordReadsAsJacksonReadsIt() {
    Random random = new Random(2020);
    int readFlat = 0;
    for (int i = 0; i < 30_000; i++) {
      String raw = i % 2 == 0 ? randomPieces(random) : mutated(randomObject(random), random);
      for (JsonEventFormat format : FORMATS) {
        String jackson = outcome(() -> format.parseWithJackson(raw));
        assertThat(raw, outcome(() -> format.parse(raw)), equalTo(jackson));
        String flat = outcome(() -> format.parseFlat(raw));
        if (!flat.equals("null")) {
          readFlat++;
          assertThat(raw, flat, equalTo(jackson));
        }
      }
    }
    // Enough of the random records are read the fast way for the comparison to mean something.
    assertThat(readFlat, greaterThan(5_000));
  }

  @Test
  void theRecordsOfTheScenariosAreReadWithoutAParser() throws Exception {
    JsonEventFormat s5 = JsonEventFormat.withKey("i", "op").withTime("t");
    JsonEventFormat s4 = JsonEventFormat.withKey("orderBatchId").withTime("orderLastModifyTime");
    String s5Record =
        "{\"t\":1580896327330,\"st\":\"DIRECT\",\"i\":\"hitch_passenger_order_2020_01_22\","
            + "\"op\":\"es_sink\",\"id\":12,\"msg\":\"ok\",\"rId\":\"r-1\"}";
    for (String raw : List.of(s5Record, LineShape.S5_STATS.line("k3", 1_699_999_999_520L, 41))) {
      assertThat(raw, s5.parseFlat(raw), notNullValue());
      assertThat(s5.parseFlat(raw), equalTo(s5.parseWithJackson(raw)));
    }
    String order = LineShape.S4_ORDERS.line("k3", 1_699_999_999_520L, 41);
    assertThat(order, s4.parseFlat(order), notNullValue());
    assertThat(s4.parseFlat(order), equalTo(s4.parseWithJackson(order)));
  }

  @Test
  void whatIsNotAPlainFlatRecordIsJacksons() throws Exception {
    String[] fields = {"i", "op", "t"};
    for (String raw :
        List.of(
            "{\"i\":\"a\\nb\"}",
            "{\"i\":1.5}",
            "{\"i\":1e3}",
            "{\"i\":nul}",
            "{\"i\":nullx}",
            "{\"x\":{\"i\":1}}",
            "{\"i\":1234567890123456789}",
            "{\"i\":01}",
            "{\"i\":1,}",
            "{\"i\":1",
            "[1]",
            "")) {
      assertThat(raw, FlatJsonFields.spans(raw, fields), nullValue());
    }
    JsonEventFormat format = JsonEventFormat.withKey("i", "op").withTime("t");
    // Flat, but a key Jackson writes otherwise, or a record Jackson refuses with its reason.
    for (String raw :
        List.of(
            "{\"i\":-0,\"op\":\"a\",\"t\":1699999999520}",
            "{\"i\":null,\"op\":\"a\",\"t\":1699999999520}",
            "{\"op\":\"a\",\"t\":1699999999520}",
            "{\"i\":\"a\",\"op\":\"b\",\"t\":true}",
            "{\"i\":\"a\",\"op\":\"b\",\"t\":\"soon\"}")) {
      assertThat(raw, format.parseFlat(raw), nullValue());
    }
  }

  /** The event as text, or the reason the record is refused, or "null". */
  private static String outcome(Parse parse) {
    try {
      return String.valueOf(parse.run());
    } catch (BadRecordException e) {
      return "refused: " + e.getMessage();
    }
  }

  @FunctionalInterface
  private interface Parse {
    Object run() throws BadRecordException;
  }

  private static String randomPieces(Random random) {
    StringBuilder raw = new StringBuilder();
    int pieces = 1 + random.nextInt(14);
    for (int i = 0; i < pieces; i++) {
      raw.append(PIECES.get(random.nextInt(PIECES.size())));
    }
    return raw.toString();
  }

  /** A flat object of the formats' fields, others and repeated ones, with plain values. */
  private static String randomObject(Random random) {
    List<String> names = new ArrayList<>(List.of("\"i\"", "\"op\"", "\"t\"", "\"n\""));
    for (int extra = random.nextInt(3); extra > 0; extra--) {
      names.add(List.of("\"x\"", "\"\"", "\"t\"", "\"i\"").get(random.nextInt(4)));
    }
    Collections.shuffle(names, random);
    StringBuilder raw = new StringBuilder(random.nextBoolean() ? "{" : " { ");
    for (int i = 0; i < names.size(); i++) {
      raw.append(i == 0 ? "" : random.nextBoolean() ? "," : " ,\n")
          .append(names.get(i))
          .append(random.nextBoolean() ? ":" : " : ")
          .append(VALUES.get(random.nextInt(VALUES.size())));
    }
    return raw.append(random.nextBoolean() ? "}" : " }\t").toString();
  }

  /** {@code raw} with one piece of {@link #PIECES} put in, or one character taken out, or as is. */
  private static String mutated(String raw, Random random) {
    int at = random.nextInt(raw.length() + 1);
    return switch (random.nextInt(3)) {
      case 0 ->
          raw.substring(0, at) + PIECES.get(random.nextInt(PIECES.size())) + raw.substring(at);
      case 1 -> at < raw.length() ? raw.substring(0, at) + raw.substring(at + 1) : raw;
      default -> raw;
    };
  }
}
