package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.SourcePosition;
import org.apache.beam.sdk.io.kafka.KafkaRecord;

/**
 * A Kafka record as an {@link ArrivedLine} with its topic, partition and offset, and its event if
 * the deserializer parsed it ({@link KafkaText}). A record whose value is not UTF-8, or is longer
 * than the limit, is a line its source knows is dead, with the reason, so the parse step counts it
 * in and routes it to the dead letters like any other.
 */
final class KafkaArrivedLines {

  private KafkaArrivedLines() {}

  static ArrivedLine of(KafkaRecord<byte[], KafkaText> record) {
    SourcePosition position =
        new SourcePosition(record.getTopic(), record.getPartition(), record.getOffset());
    KafkaText value = record.getKV().getValue();
    return value.isText()
        ? ArrivedLine.fromKafka(value.text(), position, value.parsed())
        : ArrivedLine.deadFromKafka(value.text(), position, value.deadReason());
  }
}
