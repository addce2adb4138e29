package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.BigDecimalCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.ByteCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.FloatCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The coder of a list of SQL column values of mixed types, each with a one-byte tag: null, {@code
 * Long}, {@code Integer}, {@code Double}, {@code Float}, {@code String}, {@code Boolean} or {@code
 * BigDecimal}, the Java types that Calcite gives its SQL types (a {@code TIMESTAMP} is a {@code
 * Long} of epoch milliseconds). Written here because Beam's {@code RowCoder} needs the schema of
 * every list up front, and {@link Event}'s coder has none.
 */
public final class ColumnValuesCoder extends AtomicCoder<List<@Nullable Object>> {

  private static final ColumnValuesCoder INSTANCE = new ColumnValuesCoder();

  private static final byte NULL = 0;
  private static final byte LONG = 1;
  private static final byte INTEGER = 2;
  private static final byte DOUBLE = 3;
  private static final byte FLOAT = 4;
  private static final byte STRING = 5;
  private static final byte BOOLEAN = 6;
  private static final byte DECIMAL = 7;

  private ColumnValuesCoder() {}

  public static ColumnValuesCoder of() {
    return INSTANCE;
  }

  /** Whether this coder encodes {@code value}: null or one of the types it has a tag for. */
  public static boolean encodes(@Nullable Object value) {
    return value == null
        || value instanceof Long
        || value instanceof Integer
        || value instanceof Double
        || value instanceof Float
        || value instanceof String
        || value instanceof Boolean
        || value instanceof BigDecimal;
  }

  @Override
  public void encode(List<@Nullable Object> values, OutputStream out) throws IOException {
    VarIntCoder.of().encode(values.size(), out);
    for (Object value : values) {
      encodeValue(value, out);
    }
  }

  private static void encodeValue(@Nullable Object value, OutputStream out) throws IOException {
    if (value == null) {
      ByteCoder.of().encode(NULL, out);
    } else if (value instanceof Long l) {
      ByteCoder.of().encode(LONG, out);
      VarLongCoder.of().encode(l, out);
    } else if (value instanceof Integer i) {
      ByteCoder.of().encode(INTEGER, out);
      VarIntCoder.of().encode(i, out);
    } else if (value instanceof Double d) {
      ByteCoder.of().encode(DOUBLE, out);
      DoubleCoder.of().encode(d, out);
    } else if (value instanceof Float f) {
      ByteCoder.of().encode(FLOAT, out);
      FloatCoder.of().encode(f, out);
    } else if (value instanceof String s) {
      ByteCoder.of().encode(STRING, out);
      StringUtf8Coder.of().encode(s, out);
    } else if (value instanceof Boolean b) {
      ByteCoder.of().encode(BOOLEAN, out);
      BooleanCoder.of().encode(b, out);
    } else if (value instanceof BigDecimal d) {
      ByteCoder.of().encode(DECIMAL, out);
      BigDecimalCoder.of().encode(d, out);
    } else {
      throw new CoderException(
          "no tag for a column value of " + value.getClass().getName() + ": " + value);
    }
  }

  @Override
  public List<@Nullable Object> decode(InputStream in) throws IOException {
    int size = VarIntCoder.of().decode(in);
    if (size == 0) {
      return Collections.emptyList();
    }
    List<@Nullable Object> values = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      values.add(decodeValue(in));
    }
    return Collections.unmodifiableList(values);
  }

  private static @Nullable Object decodeValue(InputStream in) throws IOException {
    byte tag = ByteCoder.of().decode(in);
    return switch (tag) {
      case NULL -> null;
      case LONG -> VarLongCoder.of().decode(in);
      case INTEGER -> VarIntCoder.of().decode(in);
      case DOUBLE -> DoubleCoder.of().decode(in);
      case FLOAT -> FloatCoder.of().decode(in);
      case STRING -> StringUtf8Coder.of().decode(in);
      case BOOLEAN -> BooleanCoder.of().decode(in);
      case DECIMAL -> BigDecimalCoder.of().decode(in);
      default -> throw new CoderException("unknown column value tag " + tag);
    };
  }

  @Override
  public void verifyDeterministic() {}
}
