package dev.tidemark.pipelines.steps;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.windowing.Expired;
import java.io.IOException;
import java.io.StringWriter;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The JSON lines tidemark writes, each written field by field with Jackson's streaming generator: a
 * pipeline writes one per result, and building a tree of nodes for each, then finding a serializer
 * for it, would cost more than the window step that decided the result.
 */
public final class JsonLines {

  private static final JsonFactory JSON = new JsonFactory();

  private JsonLines() {}

  /** Writes the fields of one JSON object, in order. */
  @FunctionalInterface
  public interface Fields {
    void write(JsonGenerator json) throws IOException;
  }

  /** The JSON object {@code fields} writes, as one line of compact text. */
  public static String object(Fields fields) {
    StringWriter text = new StringWriter(160);
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartObject();
      fields.write(json);
      json.writeEndObject();
    } catch (IOException e) {
      // A StringWriter does not fail; a Fields that throws is a bug in the caller.
      throw new IllegalStateException("cannot write a JSON line", e);
    }
    return text.toString();
  }

  /**
   * Writes every field of the JSON object {@code objectText}, in its order, as the fields of the
   * object {@code json} is writing.
   *
   * @throws IOException when {@code objectText} is not a JSON object
   */
  public static void copyFields(String objectText, JsonGenerator json) throws IOException {
    try (JsonParser parser = JSON.createParser(objectText)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a JSON object: " + objectText);
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        json.copyCurrentStructure(parser);
      }
    }
  }

  /**
   * Writes the pane's window, timing, index (0, 1, ...) and finality. A consumer keeps the final
   * pane per key and window once it has come, until then the highest index ({@link
   * dev.tidemark.transforms.model.WindowResult} says why).
   */
  public static void writePane(JsonGenerator json, WindowPane pane) throws IOException {
    json.writeNumberField("windowStart", pane.windowStart().getMillis());
    json.writeNumberField("windowEnd", pane.windowEnd().getMillis());
    writeTiming(json, pane);
  }

  /**
   * Writes the pane's timing, index and finality, without its window; for a session that merged
   * into another after a row of it came out, {@code mergedInto} with that session's window: the row
   * withdraws the window's earlier rows.
   */
  public static void writeTiming(JsonGenerator json, WindowPane pane) throws IOException {
    json.writeStringField("timing", pane.timing().name());
    json.writeNumberField("pane", pane.index());
    json.writeBooleanField("final", pane.isFinal());
    if (pane.mergedInto() != null) {
      json.writeObjectFieldStart("mergedInto");
      json.writeNumberField("windowStart", pane.mergedInto().start().getMillis());
      json.writeNumberField("windowEnd", pane.mergedInto().end().getMillis());
      json.writeEndObject();
    }
  }

  /**
   * A result's record key: its key and window, the same for every pane of the window. A session
   * that grew keeps its start, so the window's end is part of it too: the row that withdraws the
   * smaller session deletes its key only.
   */
  public static String windowKey(WindowResult result) {
    return object(
        json -> {
          json.writeStringField("key", result.key().text());
          json.writeNumberField("windowStart", result.pane().windowStart().getMillis());
          json.writeNumberField("windowEnd", result.pane().windowEnd().getMillis());
        });
  }

  /** A late record: {@code "type":"late"}, where it belonged and the watermark it met. */
  public static String late(Expired<Event> late) {
    return object(
        json -> {
          json.writeStringField("type", "late");
          json.writeStringField("key", late.value().key().text());
          json.writeNumberField("eventTime", late.eventTime().getMillis());
          json.writeNumberField("windowStart", late.window().start().getMillis());
          json.writeNumberField("windowEnd", late.window().end().getMillis());
          json.writeNumberField("watermark", late.watermark().getMillis());
          json.writeNumberField("lateByMillis", late.lateBy().getMillis());
          json.writeStringField("record", late.value().raw());
          writeSource(json, late.value().source());
        });
  }

  /** A record that could not be parsed: {@code "type":"deadLetter"}, the reason and the text. */
  public static String deadLetter(DeadLetter letter) {
    return object(
        json -> {
          json.writeStringField("type", "deadLetter");
          json.writeStringField("reason", letter.reason());
          json.writeStringField("record", letter.raw());
          writeSource(json, letter.source());
        });
  }

  /**
   * Where the record is in Kafka, when the source said: {@code topic}, {@code partition}, {@code
   * offset}.
   */
  private static void writeSource(JsonGenerator json, @Nullable SourcePosition source)
      throws IOException {
    if (source != null) {
      json.writeStringField("topic", source.topic());
      json.writeNumberField("partition", source.partition());
      json.writeNumberField("offset", source.offset());
    }
  }
}
