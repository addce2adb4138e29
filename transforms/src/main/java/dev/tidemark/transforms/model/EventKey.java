package dev.tidemark.transforms.model;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * The key of an {@link Event}: the text of one field, or the texts of several, in order (a
 * composite key, such as S5's index and op). The parts stay parts from the parse to the output, so
 * nothing downstream reads a key back out of its text. Two keys are equal when their parts are.
 *
 * <p>{@link #text()} is how tidemark shows a key: the one part as it is, several as the compact
 * JSON array of their texts, e.g. {@code ["hitch_passenger_order","es_sink"]}.
 */
@DefaultCoder(EventKey.Coder.class)
public final class EventKey implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String[] parts;

  private EventKey(String[] parts) {
    this.parts = parts;
  }

  /** A key of one part. */
  public static EventKey of(String text) {
    return new EventKey(new String[] {requirePart(text)});
  }

  /** A key of {@code parts}, in order: at least one. */
  public static EventKey of(String... parts) {
    if (parts.length == 0) {
      throw new IllegalArgumentException("a key has at least one part");
    }
    String[] copy = parts.clone();
    for (String part : copy) {
      requirePart(part);
    }
    return new EventKey(copy);
  }

  private static String requirePart(String part) {
    if (part == null) {
      throw new NullPointerException("a key's part is null");
    }
    return part;
  }

  /** How many parts the key has: 1, or the number of fields of a composite key. */
  public int size() {
    return parts.length;
  }

  /** Part {@code index}, from 0. */
  public String part(int index) {
    return parts[index];
  }

  /** The parts, in order. */
  public List<String> parts() {
    return List.of(parts);
  }

  /**
   * The key as tidemark shows it: the part of a one-part key; the compact JSON array of the parts
   * of a composite one, escaped as Jackson writes strings.
   */
  public String text() {
    if (parts.length == 1) {
      return parts[0];
    }
    StringBuilder text = new StringBuilder(2 + 4 * parts.length).append('[');
    for (int i = 0; i < parts.length; i++) {
      text.append(i == 0 ? "\"" : ",\"");
      JsonStringEncoder.getInstance().quoteAsString(parts[i], text);
      text.append('"');
    }
    return text.append(']').toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EventKey key && Arrays.equals(parts, key.parts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(parts);
  }

  @Override
  public String toString() {
    return text();
  }

  /** The coder of {@link EventKey}: the number of parts, then each part; deterministic. */
  public static final class Coder extends AtomicCoder<EventKey> {
    private static final Coder INSTANCE = new Coder();

    public static Coder of() {
      return INSTANCE;
    }

    /** How {@link DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(EventKey.class), INSTANCE);
    }

    @Override
    public void encode(EventKey key, OutputStream out) throws IOException {
      VarIntCoder.of().encode(key.parts.length, out);
      for (String part : key.parts) {
        StringUtf8Coder.of().encode(part, out);
      }
    }

    @Override
    public EventKey decode(InputStream in) throws IOException {
      String[] parts = new String[VarIntCoder.of().decode(in)];
      for (int i = 0; i < parts.length; i++) {
        parts[i] = StringUtf8Coder.of().decode(in);
      }
      return new EventKey(parts);
    }

    @Override
    public void verifyDeterministic() {}

    @Override
    public boolean consistentWithEquals() {
      return true;
    }
  }
}
