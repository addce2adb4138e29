package dev.tidemark.transforms.model;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The key of an {@link Event}: the text of one field, or the texts of several, in order (a
 * composite key, such as S5's index and op). The parts stay parts from the parse to the output, so
 * nothing downstream reads a key back out of its text. Two keys are equal when their parts are.
 *
 * <p>{@link #text()} is how tidemark shows a key: the one part as it is, several as the compact
 * JSON array of their texts, e.g. {@code ["hitch_passenger_order","es_sink"]}.
 *
 * <p>A part may be null only in a key made by {@link #withNulls}: SQL groups rows whose group
 * column is {@code NULL} together, apart from every text, the text {@code "null"} among them.
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

  /**
   * A key of {@code parts}, in order, any of which may be null: a SQL group key, whose {@code NULL}
   * is a group of its own. A key without a null part is the key {@link #of(String...)} makes.
   */
  public static EventKey withNulls(@Nullable String... parts) {
    if (parts.length == 0) {
      throw new IllegalArgumentException("a key has at least one part");
    }
    return new EventKey(parts.clone());
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

  /** Part {@code index}, from 0; null only in a key made by {@link #withNulls}. */
  public String part(int index) {
    return parts[index];
  }

  /** Whether a part is null: a SQL group key's {@code NULL}. */
  private boolean hasNullPart() {
    for (String part : parts) {
      if (part == null) {
        return true;
      }
    }
    return false;
  }

  /** The parts, in order. */
  public List<String> parts() {
    return Collections.unmodifiableList(Arrays.asList(parts));
  }

  /**
   * The key as tidemark shows it: the part of a one-part key; the compact JSON array of the parts
   * of a composite one, escaped as Jackson writes strings.
   */
  public String text() {
    if (parts.length == 1) {
      return String.valueOf(parts[0]);
    }
    StringBuilder text = new StringBuilder(2 + 4 * parts.length).append('[');
    for (int i = 0; i < parts.length; i++) {
      text.append(i == 0 ? "" : ",");
      if (parts[i] == null) {
        text.append("null");
        continue;
      }
      text.append('"');
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

  /**
   * The coder of {@link EventKey}: the number of parts, then each part; deterministic. A key with a
   * null part has its number of parts negated, then a flag before each part, so that every key
   * without one is coded as it always was, and a saved state still reads.
   */
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
      boolean nulls = key.hasNullPart();
      VarIntCoder.of().encode(nulls ? -key.parts.length : key.parts.length, out);
      for (String part : key.parts) {
        if (nulls) {
          BooleanCoder.of().encode(part != null, out);
          if (part == null) {
            continue;
          }
        }
        StringUtf8Coder.of().encode(part, out);
      }
    }

    @Override
    public EventKey decode(InputStream in) throws IOException {
      int count = VarIntCoder.of().decode(in);
      boolean nulls = count < 0;
      String[] parts = new String[Math.abs(count)];
      for (int i = 0; i < parts.length; i++) {
        if (!nulls || BooleanCoder.of().decode(in)) {
          parts[i] = StringUtf8Coder.of().decode(in);
        }
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
