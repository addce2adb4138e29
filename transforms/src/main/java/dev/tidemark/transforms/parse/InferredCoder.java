package dev.tidemark.transforms.parse;

import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.schemas.NoSuchSchemaException;
import org.apache.beam.sdk.schemas.SchemaRegistry;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * The coder Beam infers for a type, as a {@code PCollection} of it would get one: its schema's
 * coder when the type has a schema (Beam's {@code @DefaultSchema}), else the default coder
 * registry's (a {@code Serializable} Java record gets Beam's {@code SerializableCoder}). For the
 * steps that make a record's coder before they have a pipeline, so that a user who gives the
 * record's type need not give its coder too.
 */
public final class InferredCoder {

  private InferredCoder() {}

  /**
   * The coder of {@code format}'s records, inferred from the type it parses into ({@link
   * RecordFormat#recordType}).
   *
   * @throws IllegalArgumentException when the format does not know its type, or Beam infers no
   *     coder for it
   */
  public static <T> Coder<T> ofRecordsOf(RecordFormat<T> format) {
    TypeDescriptor<T> type = format.recordType();
    if (type == null) {
      throw new IllegalArgumentException(
          "this format does not know the type it parses into, so its records' coder cannot be"
              + " inferred: give one");
    }
    return of(type);
  }

  /**
   * The coder of {@code type}.
   *
   * @throws IllegalArgumentException when Beam infers none, saying to give one
   */
  public static <T> Coder<T> of(TypeDescriptor<T> type) {
    try {
      return SchemaRegistry.createDefault().getSchemaCoder(type);
    } catch (NoSuchSchemaException noSchema) {
      try {
        return CoderRegistry.createDefault().getCoder(type);
      } catch (CannotProvideCoderException e) {
        throw new IllegalArgumentException(
            "Beam infers no coder for "
                + type
                + " (no schema, not Serializable, no default coder): give one",
            e);
      }
    }
  }
}
