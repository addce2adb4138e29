package dev.tidemark.transforms.parse;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The parser of {@link RecordFormat#json}: a JSON object read into the user's type by Jackson. A
 * field the type does not have is ignored; a field it has that is missing, or null where the type
 * holds a primitive, makes the record a dead letter, as does text that is not JSON.
 */
final class JsonRecordReader<T> implements RecordFormat.TextParser<T> {

  private static final long serialVersionUID = 1L;

  private final Class<T> type;
  private transient @Nullable ObjectReader reader;

  JsonRecordReader(Class<T> type) {
    this.type = type;
  }

  @Override
  public T parse(String raw) throws BadRecordException {
    if (reader == null) {
      reader =
          new ObjectMapper()
              .readerFor(type)
              .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
              .with(
                  DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES,
                  DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }
    try {
      return reader.readValue(raw);
    } catch (IOException e) {
      throw new BadRecordException(reason(e.getMessage()));
    }
  }

  /**
   * Jackson's message without what it adds for the developer: the excerpt of the input on the lines
   * after, and the name of the setting that made a missing field an error.
   */
  private static String reason(@Nullable String message) {
    if (message == null) {
      return "not a JSON object of the expected fields";
    }
    int newline = message.indexOf('\n');
    String firstLine = newline < 0 ? message : message.substring(0, newline);
    int setting = firstLine.indexOf("; `DeserializationFeature.");
    return setting < 0 ? firstLine : firstLine.substring(0, setting);
  }
}
