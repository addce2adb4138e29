package dev.tidemark.transforms.parse;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import org.apache.beam.sdk.util.SerializableUtils;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** The CSV and JSON formats of scenarios S1, S2 and S5, and their reasons for bad records. */
class EventFormatTest {

  private static String reason(EventFormat format, String raw) {
    return assertThrows(BadRecordException.class, () -> format.parse(raw)).getMessage();
  }

  @Test
  void csvKeyAndTime() throws Exception {
    String line = "01,1586489566000";
    assertThat(
        CsvEventFormat.keyAndTime().parse(line),
        equalTo(new Event(EventKey.of("01"), new Instant(1586489566000L), 0, line)));
    assertThat(
        reason(CsvEventFormat.keyAndTime(), "01,1586489566000,3"),
        equalTo("expected 2 comma-separated fields (key,epochMillis), found 3"));
    assertThat(
        reason(CsvEventFormat.keyAndTime().withValue(), "a,1,x"),
        equalTo("field 'value': 'x' is not a whole number"));
  }

  @Test
  void jsonOrdersOfS2() throws Exception {
    String order = "{\"id\":1,\"name\":\"a\",\"amount\":1637800000000}";
    EventFormat format = JsonEventFormat.withKey("name").withTime("amount").withValue("id");
    assertThat(
        format.parse(order),
        equalTo(new Event(EventKey.of("a"), new Instant(1637800000000L), 1, order)));
  }

  @Test
  void jsonStatisticsOfS5WithACompositeKeyAndANumericStringTime() throws Exception {
    String record =
        "{\"t\":\"1580896327330\",\"st\":\"DIRECT\","
            + "\"i\":\"hitch_passenger_order_2020_01_22_23_50_40\",\"op\":\"es_sink\"}";
    Event event = JsonEventFormat.withKey("i", "op").withTime("t").parse(record);
    assertThat(
        event.key(), equalTo(EventKey.of("hitch_passenger_order_2020_01_22_23_50_40", "es_sink")));
    assertThat(
        event.key().text(), equalTo("[\"hitch_passenger_order_2020_01_22_23_50_40\",\"es_sink\"]"));
    assertThat(event.eventTime(), equalTo(new Instant(1580896327330L)));
  }

  @Test
  void aJsonFormatReadsTheSameAfterSerialization() throws Exception {
    // Workers get the format serialized; its field names are matched again after that.
    JsonEventFormat format = JsonEventFormat.withKey("i", "op").withTime("t").withValue("n");
    String record = "{\"t\":5,\"i\":\"x\",\"op\":\"y\",\"n\":2}";
    assertThat(
        SerializableUtils.clone(format).parse(record),
        equalTo(new Event(EventKey.of("x", "y"), new Instant(5), 2, record)));
  }

  @Test
  void aCompositeKeyIsTheJsonArrayJacksonWrites() throws Exception {
    // Quotes, backslashes, control characters, non-ASCII text and numbers, as Jackson escapes them.
    String record = "{\"t\":1,\"a\":\"q\\\"b\\\\s\\u0001\",\"b\":\"été\",\"c\":2.50}";
    ArrayNode expected =
        new ObjectMapper().createArrayNode().add("q\"b\\s\u0001").add("été").add("2.5");
    assertThat(
        JsonEventFormat.withKey("a", "b", "c").withTime("t").parse(record).key().text(),
        equalTo(expected.toString()));
  }

  @Test
  void jsonReasons() {
    EventFormat format = JsonEventFormat.withKey("name").withTime("amount").withValue("id");
    assertThat(reason(format, "[1,2]"), equalTo("not a JSON object"));
    assertThat(reason(format, "{\"name\":\"a\",\"amount\":1}"), equalTo("missing field 'id'"));
    assertThat(
        reason(format, "{\"id\":1,\"name\":\"a\",\"amount\":\"noon\"}"),
        equalTo("field 'amount': \"noon\" is not a whole number"));
    assertThat(
        reason(format, "{\"id\":1.5,\"name\":\"a\",\"amount\":1}"),
        equalTo("field 'id': 1.5 is not a whole number"));
    assertThat(
        reason(format, "{\"id\":1,\"name\":{\"x\":1},\"amount\":1}"),
        equalTo("field 'name' is not a text or a number"));
    assertThat(
        reason(format, "{\"id\":1,\"name\":\"a\",\"amount\":-9223372036854775808}"),
        equalTo("field 'amount': -9223372036854775808 is outside the timestamps Beam can window"));
    assertThat(reason(format, "{\"id\":1,").startsWith("not JSON: "), equalTo(true));
  }

  @Test
  void jsonFieldsAreReadAsTheTreeWouldHaveReadThem() throws Exception {
    JsonEventFormat format = JsonEventFormat.withKey("k").withTime("t").withValue("v");
    // (1) A field given twice keeps its last value; fields the format does not need, nested or
    // not, are skipped; a number key reads as its text.
    assertThat(
        format.parse("{\"k\":1.5,\"x\":{\"y\":[1,{\"z\":2}]},\"t\":5,\"t\":7,\"v\":\"3\"}"),
        equalTo(
            new Event(
                EventKey.of("1.5"),
                new Instant(7),
                3,
                "{\"k\":1.5,\"x\":{\"y\":[1,{\"z\":2}]},\"t\":5,\"t\":7,\"v\":\"3\"}")));
    assertThat(format.parse("{\"k\":true,\"t\":1,\"v\":2}").key(), equalTo(EventKey.of("true")));
    // (2) A needed field that is an object or a number too big for a long: the same reasons as
    // before, with the value as JSON.
    assertThat(
        reason(format, "{\"k\":{\"a\":1},\"t\":1,\"v\":2}"),
        equalTo("field 'k' is not a text or a number"));
    assertThat(
        reason(format, "{\"k\":\"a\",\"t\":1,\"v\":[1]}"),
        equalTo("field 'v': [1] is not a whole number"));
    assertThat(
        reason(format, "{\"k\":\"a\",\"t\":99999999999999999999,\"v\":2}"),
        equalTo("field 't': 99999999999999999999 is not a whole number"));
    assertThat(
        reason(format, "{\"k\":\"a\",\"t\":\"soon\",\"v\":2}"),
        equalTo("field 't': \"soon\" is not a whole number"));
    assertThat(reason(format, "{\"k\":null,\"t\":1,\"v\":2}"), equalTo("missing field 'k'"));
    assertThat(reason(format, ""), equalTo("not a JSON object"));
    assertThat(reason(format, "plain text").startsWith("not JSON: "), equalTo(true));
  }
}
