package dev.tidemark.transforms.io.kafka;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.SourcePosition;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.SerializableFunction;

/**
 * The records of a {@code KafkaIO.read()} (kept with their metadata: no {@code withoutMetadata()})
 * as lines for a parse step, each with its topic, partition and offset, so that a dead letter or a
 * late record can be found again in the topic.
 *
 * <pre>{@code
 * pipeline.apply(KafkaIO.<String, String>read()...withValueDeserializer(StringDeserializer.class))
 *     .apply(ParseRecords.of(format, coder, KafkaLines.withPositions()));
 * }</pre>
 */
public final class KafkaLines {

  private KafkaLines() {}

  /** Each record's value as a line, at the record's place in its topic. */
  public static <K> SerializableFunction<KafkaRecord<K, String>, ArrivedLine> withPositions() {
    return record ->
        ArrivedLine.fromKafka(
            record.getKV().getValue(),
            new SourcePosition(record.getTopic(), record.getPartition(), record.getOffset()),
            null);
  }
}
