package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.io.RecordLimit;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.EventFormat;
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
 * A Kafka record's value as text, decoded once, strictly ({@link Utf8Text}), and parsed once:
 * either the text, with its event if the format could parse it, or the reason it is a dead letter
 * with what can be shown of it: a value that is not UTF-8, with replacement characters; a value
 * longer than the limit, only its first bytes ({@link RecordLimit}). Read by the timestamp policy
 * and by the parse step alike, so neither parses the value again; a value that the format could not
 * parse is parsed again by the parse step, for its reason.
 */
record KafkaText(String text, @Nullable Event parsed, @Nullable String deadReason) {

  /** The consumer property that carries the limit to the deserializer. */
  static final String MAX_RECORD_BYTES = "tidemark.max.record.bytes";

  /** The consumer property that carries the {@link EventFormat} to the deserializer. */
  static final String EVENT_FORMAT = "tidemark.event.format";

  /** {@code bytes} decoded and, with a {@code format}, parsed; an absent value is empty text. */
  static KafkaText of(byte @Nullable [] bytes, int maxRecordBytes, @Nullable EventFormat format) {
    if (bytes == null) {
      return new KafkaText("", null, null);
    }
    if (bytes.length > maxRecordBytes) {
      return new KafkaText(
          new String(bytes, 0, RecordLimit.keptBytes(maxRecordBytes), StandardCharsets.UTF_8),
          null,
          RecordLimit.reason("value", bytes.length, maxRecordBytes));
    }
    String text = Utf8Text.decodeOrNull(bytes);
    return text != null
        ? new KafkaText(text, parsedOrNull(text, format), null)
        : new KafkaText(Utf8Text.lossy(bytes), null, Utf8Text.reason(bytes));
  }

  private static @Nullable Event parsedOrNull(String text, @Nullable EventFormat format) {
    if (format == null) {
      return null;
    }
    try {
      return format.parse(text);
    } catch (BadRecordException e) {
      return null;
    }
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
    private @Nullable EventFormat format;

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      Object limit = configs.get(MAX_RECORD_BYTES);
      if (limit != null) {
        maxRecordBytes = Integer.parseInt(limit.toString());
      }
      if (configs.get(EVENT_FORMAT) instanceof EventFormat configured) {
        format = configured;
      }
    }

    @Override
    public KafkaText deserialize(String topic, byte @Nullable [] data) {
      return KafkaText.of(data, maxRecordBytes, format);
    }
  }

  /** The coder of {@link KafkaText}. */
  static final class Coder extends AtomicCoder<KafkaText> {
    private static final Coder INSTANCE = new Coder();
    private static final NullableCoder<String> REASON = NullableCoder.of(StringUtf8Coder.of());
    private static final NullableCoder<Event> PARSED = NullableCoder.of(Event.Coder.of());

    static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(KafkaText value, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(value.text, out);
      PARSED.encode(value.parsed, out);
      REASON.encode(value.deadReason, out);
    }

    @Override
    public KafkaText decode(InputStream in) throws IOException {
      return new KafkaText(StringUtf8Coder.of().decode(in), PARSED.decode(in), REASON.decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
