package dev.tidemark.transforms.parse;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.instanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.Serializable;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.schemas.JavaFieldSchema;
import org.apache.beam.sdk.schemas.SchemaCoder;
import org.apache.beam.sdk.schemas.annotations.DefaultSchema;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A user who names their record's type (with {@code RecordFormat.json}) or their key's type gets
 * the coder Beam infers for it: a schema's, else the registry's; and a line that says what to do
 * when Beam infers none.
 */
class InferredCoderTest {

  /** A record Java serialization can write. */
  record Click(String page, long tsMillis) implements Serializable {}

  /** A type with a schema of Beam's: its public fields. */
  @DefaultSchema(JavaFieldSchema.class)
  public static final class Reading {
    public String site = "";
    public double value;
  }

  /** A type Beam has no coder for. */
  record Opaque(Object anything) {}

  @Test
  void aSerializableRecordGetsSerializableCoderAndAKeyTypeItsRegistryCoder() throws Exception {
    RecordFormat<Click> clicks =
        RecordFormat.json(Click.class, click -> new Instant(click.tsMillis()));

    assertThat(InferredCoder.ofRecordsOf(clicks), equalTo(SerializableCoder.of(Click.class)));
    CoderProperties.coderDecodeEncodeEqual(
        InferredCoder.ofRecordsOf(clicks), new Click("/home", 1_000));
    assertThat(InferredCoder.of(TypeDescriptors.strings()), equalTo(StringUtf8Coder.of()));
  }

  @Test
  void aTypeWithASchemaGetsItsSchemasCoder() {
    assertThat(InferredCoder.of(TypeDescriptor.of(Reading.class)), instanceOf(SchemaCoder.class));
  }

  @Test
  void noCoderToInferIsRefusedWithWhatToDo() {
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> InferredCoder.of(TypeDescriptor.of(Opaque.class)))
            .getMessage(),
        containsString("give one"));
    RecordFormat<String> untyped = RecordFormat.of(raw -> raw, raw -> new Instant(0));
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> InferredCoder.ofRecordsOf(untyped))
            .getMessage(),
        containsString("does not know the type it parses into"));
  }
}
