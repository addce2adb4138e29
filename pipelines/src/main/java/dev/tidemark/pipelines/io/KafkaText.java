package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.io.RecordLimit;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.kafka.common.serialization.Deserializer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Kafka record's value as text, decoded once, strictly ({@link Utf8Text}): either the text, or
 * the reason it is a dead letter with what can be shown of it: a value that is not UTF-8, with
 * replacement characters; a value longer than the limit, only its first bytes ({@link
 * RecordLimit}). Read by the timestamp policy and by the parse step alike.
 */
record KafkaText(String text, @Nullable String deadReason) {

  /** The consumer property that carries the limit to the deserializer. */
  static final String MAX_RECORD_BYTES = "tidemark.max.record.bytes";

  /** {@code bytes} decoded; an absent value is empty text. */
  static KafkaText of(byte @Nullable [] bytes, int maxRecordBytes) {
    if (bytes == null) {
      return new KafkaText("", null);
    }
    if (bytes.length > maxRecordBytes) {
      return new KafkaText(
          new String(bytes, 0, RecordLimit.keptBytes(maxRecordBytes), StandardCharsets.UTF_8),
          RecordLimit.reason("value", bytes.length, maxRecordBytes));
    }
    String text = Utf8Text.decodeOrNull(bytes);
    return text != null
        ? new KafkaText(text, null)
        : new KafkaText(Utf8Text.lossy(bytes), Utf8Text.reason(bytes));
  }

  /** Whether the value is a record's text, and {@link #text} is the record. */
  boolean isText() {
    return deadReason == null;
  }

  /**
   * KafkaIO's value deserializer: every value, valid or not, becomes a {@link KafkaText}; values
   * longer than the consumer property {@link #MAX_RECORD_BYTES} are cut.
   */
  public static final class KafkaDeserializer implements Deserializer<KafkaText> {

    private int maxRecordBytes = Integer.MAX_VALUE;

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      Object limit = configs.get(MAX_RECORD_BYTES);
      if (limit != null) {
        maxRecordBytes = Integer.parseInt(limit.toString());
      }
    }

    @Override
    public KafkaText deserialize(String topic, byte @Nullable [] data) {
      return KafkaText.of(data, maxRecordBytes);
    }
  }

  /** The coder of {@link KafkaText}. */
  static final class Coder extends AtomicCoder<KafkaText> {
    private static final Coder INSTANCE = new Coder();
    private static final NullableCoder<String> REASON = NullableCoder.of(StringUtf8Coder.of());

    static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(KafkaText value, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(value.text, out);
      REASON.encode(value.deadReason, out);
    }

    @Override
    public KafkaText decode(InputStream in) throws IOException {
      return new KafkaText(StringUtf8Coder.of().decode(in), REASON.decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
