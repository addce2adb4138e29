package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.SourcePosition;
import dev.tidemark.transforms.parse.ParseEvents;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;

/**
 * A Kafka record as an {@link ArrivedLine} with its topic, partition and offset; a record whose
 * value is not UTF-8, or is longer than the limit, goes to {@link ParseEvents#DEAD_LETTER} instead,
 * counted in and out as the parse step counts its own dead letters, so every record read is
 * accounted for once.
 */
final class DecodeKafkaRecordFn extends DoFn<KafkaRecord<byte[], KafkaText>, ArrivedLine> {

  /** The records that are text, for the parse step. */
  static final TupleTag<ArrivedLine> TEXT = new TupleTag<ArrivedLine>() {};

  private final Counter recordsIn = TidemarkMetrics.recordsIn();
  private final Counter deadLetters = TidemarkMetrics.deadLetters();

  @ProcessElement
  public void processElement(
      @Element KafkaRecord<byte[], KafkaText> record, MultiOutputReceiver out) {
    SourcePosition position =
        new SourcePosition(record.getTopic(), record.getPartition(), record.getOffset());
    KafkaText value = record.getKV().getValue();
    if (value.isText()) {
      out.get(TEXT).output(ArrivedLine.fromKafka(value.text(), position));
      return;
    }
    recordsIn.inc();
    deadLetters.inc();
    out.get(ParseEvents.DEAD_LETTER)
        .output(new DeadLetter(value.text(), value.deadReason(), position));
  }
}
