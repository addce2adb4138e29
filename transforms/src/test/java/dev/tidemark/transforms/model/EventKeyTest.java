package dev.tidemark.transforms.model;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

class EventKeyTest {

  @Test
  void aKeyOfOnePartShowsItsText() {
    assertThat(EventKey.of("a,b \"c\"").text(), equalTo("a,b \"c\""));
  }

  @Test
  void aCompositeKeyShowsTheJsonArrayJacksonWritesOfItsParts() throws Exception {
    List<String> parts = List.of("hitch_order", "es\"sink\\", "tab\there", "π");
    EventKey key = EventKey.of(parts.toArray(String[]::new));
    assertThat(key.text(), equalTo(new ObjectMapper().writeValueAsString(parts)));
    assertThat(key.parts(), equalTo(parts));
    assertThat(key.size(), equalTo(4));
    assertThat(key.part(1), equalTo("es\"sink\\"));
  }

  @Test
  void keysAreEqualPartByPartNotByText() {
    assertThat(EventKey.of("a", "b"), equalTo(EventKey.of("a", "b")));
    assertThat(EventKey.of("a", "b").hashCode(), equalTo(EventKey.of("a", "b").hashCode()));
    assertThat(EventKey.of("a", "b"), not(equalTo(EventKey.of("b", "a"))));
    // A one-part key whose text is a composite key's text is still another key.
    assertThat(EventKey.of("[\"a\",\"b\"]"), not(equalTo(EventKey.of("a", "b"))));
  }

  @Test
  void aKeyHasAtLeastOnePartAndNoNullOne() {
    assertThrows(IllegalArgumentException.class, () -> EventKey.of(new String[0]));
    assertThrows(NullPointerException.class, () -> EventKey.of("a", null));
  }

  @Test
  void aSqlKeysNullIsAGroupOfItsOwnAndShowsAsJsonNull() throws Exception {
    EventKey withNull = EventKey.withNulls(null, "b");
    assertThat(withNull, not(equalTo(EventKey.of("null", "b"))));
    assertThat(withNull, equalTo(EventKey.withNulls(null, "b")));
    assertThat(withNull.text(), equalTo("[null,\"b\"]"));
    assertThat(EventKey.withNulls((String) null).text(), equalTo("null"));
    assertThat(EventKey.withNulls("a", "b"), equalTo(EventKey.of("a", "b")));
  }

  @Test
  void theCoderKeepsNullPartsAndCodesEveryOtherKeyAsBefore() throws Exception {
    for (EventKey key :
        List.of(
            EventKey.withNulls(null, "b"),
            EventKey.withNulls("a", null, ""),
            EventKey.withNulls((String) null),
            EventKey.of("a", "b"))) {
      assertThat(CoderUtils.clone(EventKey.Coder.of(), key), equalTo(key));
    }
    // A key without a null part: its count of parts, then each part, as every saved state has it.
    ByteArrayOutputStream before = new ByteArrayOutputStream();
    VarIntCoder.of().encode(2, before);
    StringUtf8Coder.of().encode("a", before);
    StringUtf8Coder.of().encode("b", before);
    assertThat(
        CoderUtils.encodeToByteArray(EventKey.Coder.of(), EventKey.withNulls("a", "b")),
        equalTo(before.toByteArray()));
  }
}
