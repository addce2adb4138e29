package dev.tidemark.transforms.io.kafka;

import dev.tidemark.transforms.io.kafka.NumberedRecord.NumberedRecordCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;

class NumberedRecordCoderTest {

  private static final NumberedRecordCoder<String, String> CODER =
      NumberedRecordCoder.of(
          KvCoder.of(NullableCoder.of(StringUtf8Coder.of()), StringUtf8Coder.of()));

  @Test
  void roundTripsARecordWithAKeyAndOneWithout() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(
        CODER, new NumberedRecord<>("run-1", 0, KV.of("orders-3@17", "{\"count\":4}")));
    CoderProperties.coderDecodeEncodeEqual(
        CODER, new NumberedRecord<>("run-1", Long.MAX_VALUE, KV.of(null, "")));
  }

  @Test
  void isDeterministicWhereTheRecordsCoderIs() throws Exception {
    CoderProperties.coderDeterministic(
        CODER,
        new NumberedRecord<>("run-2", 5, KV.of("k", "v")),
        new NumberedRecord<>("run-2", 5, KV.of("k", "v")));
  }
}
