package dev.tidemark.pipelines;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.LateRecord;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.model.WindowPane;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The JSON lines tidemark writes, built with Jackson. */
final class JsonLines {

  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonLines() {}

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  static String text(ObjectNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON for " + node, e);
    }
  }

  /**
   * Adds the pane's window, timing, index (0, 1, ...) and finality to {@code node}. A consumer
   * keeps the final pane per key and window once it has come, until then the highest index ({@link
   * dev.tidemark.transforms.model.WindowResult} says why).
   */
  static ObjectNode withPane(ObjectNode node, WindowPane pane) {
    node.put("windowStart", pane.windowStart().getMillis());
    node.put("windowEnd", pane.windowEnd().getMillis());
    node.put("timing", pane.timing().name());
    node.put("pane", pane.index());
    node.put("final", pane.isFinal());
    return node;
  }

  /** A late record: {@code "type":"late"}, where it belonged and the watermark it met. */
  static String late(LateRecord late) {
    ObjectNode node = object();
    node.put("type", "late");
    node.put("key", late.key());
    node.put("eventTime", late.eventTime().getMillis());
    node.put("windowStart", late.windowStart().getMillis());
    node.put("windowEnd", late.windowEnd().getMillis());
    node.put("watermark", late.watermark().getMillis());
    node.put("lateByMillis", late.lateBy().getMillis());
    node.put("record", late.record());
    return text(withSource(node, late.source()));
  }

  /** A record that could not be parsed: {@code "type":"deadLetter"}, the reason and the text. */
  static String deadLetter(DeadLetter letter) {
    ObjectNode node = object();
    node.put("type", "deadLetter");
    node.put("reason", letter.reason());
    node.put("record", letter.raw());
    return text(withSource(node, letter.source()));
  }

  /**
   * Where the record is in Kafka, when the source said: {@code topic}, {@code partition}, {@code
   * offset}.
   */
  private static ObjectNode withSource(ObjectNode node, @Nullable SourcePosition source) {
    if (source != null) {
      node.put("topic", source.topic());
      node.put("partition", source.partition());
      node.put("offset", source.offset());
    }
    return node;
  }
}
