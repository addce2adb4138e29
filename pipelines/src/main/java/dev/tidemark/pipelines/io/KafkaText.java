package dev.tidemark.pipelines.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.kafka.common.serialization.Deserializer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Kafka record's value as text, decoded once, strictly ({@link Utf8Text}): either the text, or,
 * when the bytes are not UTF-8, the text with replacement characters and the reason it is a dead
 * letter. Read by the timestamp policy and by the parse step alike.
 */
record KafkaText(String text, @Nullable String notUtf8) {

  /** {@code bytes} decoded; an absent value is empty text. */
  static KafkaText of(byte @Nullable [] bytes) {
    if (bytes == null) {
      return new KafkaText("", null);
    }
    String text = Utf8Text.decodeOrNull(bytes);
    return text != null
        ? new KafkaText(text, null)
        : new KafkaText(Utf8Text.lossy(bytes), Utf8Text.reason(bytes));
  }

  /** Whether the value was UTF-8, and {@link #text} is the record. */
  boolean isText() {
    return notUtf8 == null;
  }

  /** KafkaIO's value deserializer: every value, valid or not, becomes a {@link KafkaText}. */
  public static final class KafkaDeserializer implements Deserializer<KafkaText> {

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {}

    @Override
    public KafkaText deserialize(String topic, byte @Nullable [] data) {
      return KafkaText.of(data);
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
      REASON.encode(value.notUtf8, out);
    }

    @Override
    public KafkaText decode(InputStream in) throws IOException {
      return new KafkaText(StringUtf8Coder.of().decode(in), REASON.decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
