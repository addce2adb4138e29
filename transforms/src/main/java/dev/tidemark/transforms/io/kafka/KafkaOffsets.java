package dev.tidemark.transforms.io.kafka;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Where a {@link KafkaTopicReader} is in each of its partitions: the offset of the next record to
 * read, and the partition's watermark when the mark was taken. A reader restored from it goes on
 * from those offsets, with those watermarks. Finalizing it hands it to the reader that took it,
 * which commits the offsets to the consumer group when asked to ({@code commitOffsetsInFinalize}).
 *
 * <p>The mark reaches that reader through a reference it does not serialize: Flink finalizes the
 * very marks its source wrapper took, and so does the DirectRunner when it reads on with the same
 * reader. A copy decoded from the mark's coder, or a mark whose reader has closed, is finalized
 * without a commit; a reader restored from a mark commits that mark's offsets as it starts (what a
 * runner restores from has been processed), and the next mark commits the rest. No registry of
 * readers outlives them.
 */
public final class KafkaOffsets implements UnboundedSource.CheckpointMark, Serializable {

  private static final long serialVersionUID = 1L;

  private final List<PartitionOffset> partitions;

  /** What the reader that took this mark does with it once finalized; null if it commits none. */
  private final transient @Nullable Consumer<KafkaOffsets> onFinalize;

  KafkaOffsets(List<PartitionOffset> partitions, @Nullable Consumer<KafkaOffsets> onFinalize) {
    this.partitions = List.copyOf(partitions);
    this.onFinalize = onFinalize;
  }

  /** Whether finalizing this mark hands it to the reader that took it, to commit. */
  boolean commitsWhenFinalized() {
    return onFinalize != null;
  }

  /** One partition's next offset, and its watermark in epoch milliseconds. */
  public record PartitionOffset(String topic, int partition, long nextOffset, long watermarkMillis)
      implements Serializable {

    TopicPartition topicPartition() {
      return new TopicPartition(topic, partition);
    }
  }

  public List<PartitionOffset> partitions() {
    return partitions;
  }

  /** The mark of {@code partition}, if this mark has one. */
  Optional<PartitionOffset> of(TopicPartition partition) {
    return partitions.stream()
        .filter(mark -> mark.partition() == partition.partition())
        .filter(mark -> mark.topic().equals(partition.topic()))
        .findFirst();
  }

  /** The watermark {@code partition} had when the mark was taken, if it has one. */
  Optional<Instant> watermarkOf(TopicPartition partition) {
    return of(partition).map(mark -> new Instant(mark.watermarkMillis()));
  }

  @Override
  public void finalizeCheckpoint() {
    if (onFinalize != null) {
      onFinalize.accept(this);
    }
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof KafkaOffsets that && partitions.equals(that.partitions);
  }

  @Override
  public int hashCode() {
    return partitions.hashCode();
  }

  @Override
  public String toString() {
    return "KafkaOffsets" + partitions;
  }
}
