package dev.tidemark.transforms.io.kafka;

import dev.tidemark.transforms.io.BatchingUnboundedSource;
import dev.tidemark.transforms.model.SourceBatch;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;

/**
 * A {@link KafkaIO.Read}'s records in {@link SourceBatch}es ({@link BatchingUnboundedSource}), read
 * by tidemark's own reader ({@link KafkaTopicSource}) with the read's configuration: the same
 * records, timestamps and watermarks, checkpoints and offset commits as the read, in batches, so
 * the runner's per-element cost of a source is paid once per batch, and a step can aggregate a
 * batch's records whose windows its watermark bound keeps open.
 *
 * <pre>{@code
 * PCollection<SourceBatch<KafkaRecord<K, V>>> batches =
 *     begin.apply("ReadKafka", ReadKafkaInBatches.of(KafkaIO.<K, V>read()...));
 * }</pre>
 *
 * <p>The read is never expanded: KafkaIO's options that tidemark's reader does not support are
 * refused when this transform is built ({@link KafkaTopicSource#of}).
 */
public final class ReadKafkaInBatches<K, V>
    extends PTransform<PBegin, PCollection<SourceBatch<KafkaRecord<K, V>>>> {

  /**
   * Records in one batch at most: what a backlog fills. The step after the source aggregates a
   * batch's records per key and window before the shuffle, so larger batches send fewer partial
   * aggregates through it; 4,096 took the 2M-record backlog of the Kafka benchmark about a tenth
   * faster than 512, and 16,384 no faster than 4,096.
   */
  static final int MAX_RECORDS = 4096;

  /**
   * How long a batch is gathered at most: what a live topic at a steady rate fills first, and so
   * how long its records and watermark wait before they move on.
   */
  static final Duration MAX_GATHERING = Duration.millis(50);

  private final KafkaTopicSource<K, V> source;

  private ReadKafkaInBatches(KafkaTopicSource<K, V> source) {
    this.source = source;
  }

  public static <K, V> ReadKafkaInBatches<K, V> of(KafkaIO.Read<K, V> read) {
    return new ReadKafkaInBatches<>(KafkaTopicSource.of(read));
  }

  @Override
  public PCollection<SourceBatch<KafkaRecord<K, V>>> expand(PBegin begin) {
    return begin.apply(
        "ReadBatches", Read.from(BatchingUnboundedSource.of(source, MAX_RECORDS, MAX_GATHERING)));
  }
}
